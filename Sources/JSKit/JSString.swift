import CJavaScriptCore

// MARK: - JSStringRef helpers
//
// Every JSStringRef made here is released in a `defer`. Strings go through UTF-16 so that
// embedded NUL characters survive (JSStringCreateWithUTF8CString would stop at the first one).

/// Runs `body` with a temporary JSStringRef holding `string`, released afterwards.
@inline(__always)
func withJSString<R>(_ string: String, _ body: (JSStringRef) throws -> R) rethrows -> R {
    let units = Array(string.utf16)
    let ref: JSStringRef = units.withUnsafeBufferPointer { buffer in
        JSStringCreateWithCharacters(buffer.baseAddress, buffer.count)
    }
    defer { JSStringRelease(ref) }
    return try body(ref)
}

/// Copies a JSStringRef into a Swift string (the caller keeps ownership of `ref`).
@inline(__always)
func swiftString(_ ref: JSStringRef) -> String {
    let length = JSStringGetLength(ref)
    guard length > 0, let characters = JSStringGetCharactersPtr(ref) else { return "" }
    return String(decoding: UnsafeBufferPointer(start: characters, count: length), as: UTF16.self)
}

/// Takes ownership of a JSStringRef returned by a *Copy function and converts it.
@inline(__always)
func consumeJSString(_ ref: JSStringRef) -> String {
    defer { JSStringRelease(ref) }
    return swiftString(ref)
}
