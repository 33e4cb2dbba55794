import CJavaScriptCore

/// A JavaScript exception (or a JSKit failure) surfaced in Swift.
///
/// Carries what a developer needs to find the fault: `name: message at url:line:column` and the
/// JavaScript stack.
public struct JSError: Error, CustomStringConvertible {
    /// The error's `name` (`TypeError`, `SyntaxError`...), or `Error` for thrown non-errors.
    public var name: String
    /// The error's `message`, or `String(value)` for a thrown non-error.
    public var message: String
    /// The script URL the error points at, when JavaScriptCore knows it.
    public var sourceURL: String?
    /// 1-based line within `sourceURL`.
    public var line: Int?
    /// 1-based column within the line.
    public var column: Int?
    /// The JavaScript stack, one `function@url:line:column` frame a line.
    public var stack: String?

    /// Where a frame of a JavaScriptCore stack ran: `url:line:column` of `name@url:line:column`
    /// (empty for code without a URL, `[native code]` for the engine's own functions).
    public static func place(ofFrame frame: Substring) -> Substring {
        frame.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).last ?? ""
    }

    /// The thrown value itself, so a host function can rethrow it into JavaScript unchanged.
    public var thrown: JSValue?

    /// Makes an error from Swift.
    public init(name: String = "Error", message: String, sourceURL: String? = nil, line: Int? = nil, column: Int? = nil, stack: String? = nil) {
        self.name = name
        self.message = message
        self.sourceURL = sourceURL
        self.line = line
        self.column = column
        self.stack = stack
    }

    /// Reads name, message, position and stack off a thrown JavaScript value.
    public init(thrown value: JSValue) {
        thrown = value
        guard value.isObject else {
            name = "Error"
            message = Self.shown(value)
            return
        }
        // A thrown object that is no error (no string `message`; `throw {code: 1}`) is shown as
        // its value, as Web Inspector's console shows it, not as "Error: [object Object]".
        guard value["message"].isString || value["stack"].isString else {
            name = "Uncaught"
            message = Self.shown(value)
            return
        }
        name = value["name"].stringValue ?? "Error"
        message = value["message"].stringValue ?? ((try? value.toString()) ?? "")
        // JavaScriptCore puts `line`, `column` and `sourceURL` on Error objects it throws itself
        // and on errors constructed by script (JSC's ErrorInstance::finishCreation).
        sourceURL = value["sourceURL"].stringValue
        line = value["line"].numberValue.map { Int($0) }
        column = value["column"].numberValue.map { Int($0) }
        let stackText = value["stack"].stringValue
        stack = (stackText?.isEmpty ?? true) ? nil : stackText
    }

    /// A thrown non-error as text: a string as it is, a symbol as `Symbol(description)` (which
    /// `ToString` refuses), an object as JSON (its `toString` when JSON has nothing to say).
    static func shown(_ value: JSValue) -> String {
        if value.isSymbol {
            // A symbol has no properties of its own: read `description` off its wrapper object.
            let wrapper = JSValueToObject(value.context.ref, value.ref, nil)
            let description = wrapper.map { JSValue($0, in: value.context)["description"].stringValue } ?? nil
            return "Symbol(\(description ?? ""))"
        }
        if value.isObject, !value.isFunction, let json = try? value.toJSON(), json != "{}" { return json }
        return (try? value.toString()) ?? "(unprintable exception)"
    }

    /// True when the group's execution time limit stopped the script. JavaScriptCore throws an
    /// uncatchable termination exception whose text is "JavaScript execution terminated."
    public var isTermination: Bool {
        message == "JavaScript execution terminated." || name == "TerminationError"
    }

    /// `url:line:column`, or what is known of it.
    public var location: String? {
        guard let sourceURL, !sourceURL.isEmpty else { return line.map { "<anonymous>:\($0):\(column ?? 0)" } }
        guard let line else { return sourceURL }
        return "\(sourceURL):\(line):\(column ?? 0)"
    }

    /// `Name: message (at url:line:column)`.
    public var description: String {
        var text = "\(name): \(message)"
        if let location { text += " (at \(location))" }
        return text
    }

    /// The description followed by the stack, for reports.
    public var report: String {
        guard let stack else { return description }
        return description + "\n" + stack.split(separator: "\n").map { "    at " + $0 }.joined(separator: "\n")
    }

    /// Converts the error into a JavaScript value to throw from a host function: the original
    /// thrown value if there was one, else a new Error with the same name and message.
    public func jsValue(in context: JSContext) -> JSValue {
        if let thrown { return thrown }
        return context.error(message, name: name == "Error" ? nil : name)
    }
}
