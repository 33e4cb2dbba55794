import CJavaScriptCore

extension JSContext {
    /// Evaluates `source` as a classic script.
    ///
    /// - Parameters:
    ///   - sourceURL: the URL reported in stacks and errors (`file.js:line:column`).
    ///   - startingLine: the 1-based line of the first character of `source` within that URL, so
    ///     an inline `<script>` reports the line of the HTML file it sits on.
    ///   - this: the `this` value for the script's top level, the global object when nil.
    /// - Returns: the completion value of the script.
    /// - Throws: ``JSError`` for a syntax error, an uncaught exception, or termination by the
    ///   group's execution time limit (``JSError/isTermination``).
    @discardableResult
    public func evaluate(_ source: String, sourceURL: String? = nil, startingLine: Int = 1, this: JSValue? = nil) throws -> JSValue {
        do {
            let result: JSValueRef? = try withJSString(source) { script in
                try withOptionalJSString(sourceURL) { url in
                    try trying { exception in
                        JSEvaluateScript(ref, script, this?.objectRef, url, Int32(clamping: startingLine), exception)
                    }
                }
            }
            return JSValue(result ?? JSValueMakeUndefined(ref), in: self)
        } catch var error as JSError where error.sourceURL == nil && sourceURL != nil {
            // A termination by the time limit carries no position: name the script that was stopped.
            error.sourceURL = sourceURL
            throw error
        }
    }

    /// Evaluates one of the host's own scripts, parsed once for the group
    /// (``JSContextGroup/script(_:sourceURL:)``) however many realms run it.
    /// - Throws: as ``evaluate(_:sourceURL:startingLine:this:)``.
    @discardableResult
    public func evaluate(hostScript source: String, sourceURL: String) throws -> JSValue {
        try group.script(source, sourceURL: sourceURL).evaluate(in: self)
    }

    /// Checks `source` for syntax errors without running it.
    /// - Throws: ``JSError`` (SyntaxError) with the position of the first error.
    public func checkSyntax(_ source: String, sourceURL: String? = nil, startingLine: Int = 1) throws {
        _ = try withJSString(source) { script in
            try withOptionalJSString(sourceURL) { url in
                try trying { exception in
                    JSCheckScriptSyntax(ref, script, url, Int32(clamping: startingLine), exception)
                }
            }
        }
    }
}

@inline(__always)
func withOptionalJSString<R>(_ string: String?, _ body: (JSStringRef?) throws -> R) rethrows -> R {
    guard let string else { return try body(nil) }
    return try withJSString(string) { try body($0) }
}
