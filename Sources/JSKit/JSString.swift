import CJavaScriptCore

// MARK: - JSStringRef helpers
//
// Every JSStringRef made here is released in a `defer`. Strings go through UTF-16 so that
// embedded NUL characters survive (JSStringCreateWithUTF8CString would stop at the first one).

/// Runs `body` with a temporary JSStringRef holding `string`, released afterwards.
@inline(__always)
func withJSString<R>(_ string: String, _ body: (JSStringRef) throws -> R) rethrows -> R {
    // ASCII text (most JSON and source) widens byte by byte, much faster than the UTF-16 view.
    let ascii: [UInt16]? = string.utf8.withContiguousStorageIfAvailable { bytes -> [UInt16]? in
        var isASCII = true
        for byte in bytes where byte >= 0x80 { isASCII = false; break }
        guard isASCII else { return nil }
        return [UInt16](unsafeUninitializedCapacity: bytes.count) { buffer, count in
            for index in 0..<bytes.count { buffer[index] = UInt16(bytes[index]) }
            count = bytes.count
        }
    } ?? nil
    let units = ascii ?? Array(string.utf16)
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
    let units = UnsafeBufferPointer(start: characters, count: length)
    // ASCII text narrows byte by byte; Swift's UTF-16 decoding is the slow path otherwise.
    var isASCII = true
    for unit in units where unit >= 0x80 { isASCII = false; break }
    if isASCII {
        return String(unsafeUninitializedCapacity: length) { buffer in
            for index in 0..<length { buffer[index] = UInt8(truncatingIfNeeded: units[index]) }
            return length
        }
    }
    return String(decoding: units, as: UTF16.self)
}

/// Takes ownership of a JSStringRef returned by a *Copy function and converts it.
@inline(__always)
func consumeJSString(_ ref: JSStringRef) -> String {
    defer { JSStringRelease(ref) }
    return swiftString(ref)
}
