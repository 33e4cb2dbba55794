import CJavaScriptCore

/// A classic script parsed once for a ``JSContextGroup`` and evaluated in any of its contexts:
/// each evaluation skips the parse that ``JSContext/evaluate(_:sourceURL:startingLine:this:)``
/// repeats for the same text in every new realm.
public final class JSScript {
    private let ref: JSScriptRef
    /// The group the script was made for (not retained: a group keeps the scripts it caches);
    /// it may only be evaluated in that group's contexts.
    private let groupRef: JSContextGroupRef
    /// The URL stacks and errors name.
    public let sourceURL: String

    /// Parses `source`.
    /// - Throws: ``JSError`` (a SyntaxError with the line of the first error).
    public init(_ source: String, sourceURL: String, startingLine: Int = 1, group: JSContextGroup) throws {
        var message: JSStringRef?
        var line: Int32 = 0
        let made = withJSString(source) { text in
            withJSString(sourceURL) { url in
                JSScriptCreateFromString(group.ref, url, Int32(clamping: startingLine), text, &message, &line)
            }
        }
        guard let made else {
            throw JSError(name: "SyntaxError", message: message.map(consumeJSString) ?? "the script does not parse", sourceURL: sourceURL, line: Int(line))
        }
        ref = made
        groupRef = group.ref
        self.sourceURL = sourceURL
    }

    deinit { JSScriptRelease(ref) }

    /// Runs the script at the top level of `context` (a context of the group it was made for).
    /// - Returns: its completion value.
    /// - Throws: ``JSError`` for an uncaught exception or a termination.
    @discardableResult
    public func evaluate(in context: JSContext) throws -> JSValue {
        precondition(context.group.ref == groupRef, "a script runs only in contexts of the group it was made for")
        let result = try context.trying { exception in JSScriptEvaluate(context.ref, ref, nil, exception) }
        return JSValue(result ?? JSValueMakeUndefined(context.ref), in: context)
    }
}
