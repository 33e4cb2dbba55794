extension JSONScanner {
    /// Reads a string value.
    /// - Parameter path: the value's path, built only for an error.
    /// - Throws: `JSONInputError`: shape when the value is not a string; syntax for a bad
    ///   escape, a lone surrogate, an unescaped control character, invalid UTF-8 or a missing
    ///   closing quote.
    public mutating func readString(at path: @autoclosure () -> JSONPath) throws(JSONInputError) -> String {
        skipWhitespace()
        guard peek() == ASCII.quote else { throw mismatch("a string", at: path()) }
        return try scanString(at: path, keep: true)
    }

    /// A string whose opening quote is at `index`.
    mutating func readRawString(at path: () -> JSONPath) throws(JSONInputError) -> String {
        try scanString(at: path, keep: true)
    }

    /// Moves past the string whose opening quote is at `index`, checking it; returns its
    /// value when `keep` is true (skipped strings without escapes build nothing).
    mutating func scanString(at path: () -> JSONPath, keep: Bool) throws(JSONInputError) -> String {
        index += 1
        let start = index
        // Fast path: no escapes, so the bytes between the quotes are the string.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == ASCII.quote {
                index += 1
                return keep ? String(decoding: bytes[start..<index - 1], as: UTF8.self) : ""
            }
            if byte == ASCII.backslash { break }
            if byte < 0x20 { throw controlCharacter(at: path()) }
            if byte < 0x80 {
                index += 1
            } else {
                index += try utf8Sequence(at: path)
            }
        }
        var decoded = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case ASCII.quote:
                index += 1
                return keep ? String(decoding: decoded, as: UTF8.self) : ""
            case ASCII.backslash:
                try readEscape(into: &decoded, at: path)
            case ..<0x20:
                throw controlCharacter(at: path())
            case ..<0x80:
                decoded.append(byte)
                index += 1
            default:
                let length = try utf8Sequence(at: path)
                decoded += bytes[index..<index + length]
                index += length
            }
        }
        throw truncated("in a string", at: path())
    }

    /// Decodes the escape whose backslash is at `index`, appending its UTF-8 bytes.
    mutating func readEscape(into decoded: inout [UInt8], at path: () -> JSONPath) throws(JSONInputError) {
        let backslash = index
        index += 1
        guard let escape = peek() else { throw truncated("in a string", at: path()) }
        index += 1
        switch escape {
        case ASCII.quote, ASCII.backslash, ASCII.slash: decoded.append(escape)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(ASCII.newline)
        case UInt8(ascii: "r"): decoded.append(ASCII.carriageReturn)
        case UInt8(ascii: "t"): decoded.append(ASCII.tab)
        case UInt8(ascii: "u"): appendUTF8(try readUnicodeEscape(from: backslash, at: path), to: &decoded)
        default:
            throw syntax("unknown escape '\\\(printable(escape))' in a string", at: path(), offset: backslash)
        }
    }

    /// The scalar of a `\uXXXX` escape (the `\u` read, `backslash` its start), joining a
    /// surrogate pair; a surrogate without its other half is refused.
    mutating func readUnicodeEscape(from backslash: Int, at path: () -> JSONPath) throws(JSONInputError) -> UInt32 {
        let code = try readHex4(from: backslash, at: path)
        if (0xDC00..<0xE000).contains(code) { throw loneSurrogate(from: backslash, at: path()) }
        guard (0xD800..<0xDC00).contains(code) else { return code }
        if index == bytes.count || (bytes[index] == ASCII.backslash && index + 1 == bytes.count) {
            throw truncated("in a string", at: path())
        }
        guard bytes[index] == ASCII.backslash, bytes[index + 1] == UInt8(ascii: "u") else {
            throw loneSurrogate(from: backslash, at: path())
        }
        let low = index
        index += 2
        let second = try readHex4(from: low, at: path)
        guard (0xDC00..<0xE000).contains(second) else { throw loneSurrogate(from: backslash, at: path()) }
        return 0x10000 + ((code - 0xD800) << 10) + (second - 0xDC00)
    }

    /// Four hex digits at `index`, the value of the escape starting at `backslash`.
    mutating func readHex4(from backslash: Int, at path: () -> JSONPath) throws(JSONInputError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek() else { throw truncated("in a string", at: path()) }
            guard let digit = ASCII.hexValue(byte) else {
                let text = String(decoding: bytes[backslash..<index], as: UTF8.self) + printable(byte)
                throw syntax("invalid escape '\(text)' in a string; \\u takes 4 hex digits", at: path(), offset: backslash)
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// The length of the valid UTF-8 sequence at `index` (RFC 3629: no overlong forms, no
    /// surrogates, nothing past U+10FFFF).
    /// - Throws: `JSONInputError` (syntax) pointing at the sequence's first byte.
    func utf8Sequence(at path: () -> JSONPath) throws(JSONInputError) -> Int {
        let lead = bytes[index]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: throw invalidUTF8(at: path())
        }
        guard index + length <= bytes.count else {
            // A sequence cut off by the end of the input is truncation, not bad encoding.
            let available = bytes[(index + 1)...]
            let fits = available.first.map { secondRange.contains($0) } ?? true
            throw fits && available.dropFirst().allSatisfy({ (0x80...0xBF).contains($0) })
                ? truncated("in a string", at: path()) : invalidUTF8(at: path())
        }
        guard secondRange.contains(bytes[index + 1]) else { throw invalidUTF8(at: path()) }
        for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) {
            throw invalidUTF8(at: path())
        }
        return length
    }

    /// Appends the UTF-8 encoding of a scalar value (already checked to be one).
    func appendUTF8(_ code: UInt32, to out: inout [UInt8]) {
        // Written with one typed helper per byte: the mixed-literal form took the type checker a
        // quarter of a second.
        func byte(_ lead: UInt32, _ shift: UInt32, _ mask: UInt32) -> UInt8 {
            UInt8(truncatingIfNeeded: lead | ((code >> shift) & mask))
        }
        switch code {
        case ..<0x80:
            out.append(UInt8(truncatingIfNeeded: code))
        case ..<0x800:
            out.append(byte(0xC0, 6, 0x1F))
            out.append(byte(0x80, 0, 0x3F))
        case ..<0x10000:
            out.append(byte(0xE0, 12, 0x0F))
            out.append(byte(0x80, 6, 0x3F))
            out.append(byte(0x80, 0, 0x3F))
        default:
            out.append(byte(0xF0, 18, 0x07))
            out.append(byte(0x80, 12, 0x3F))
            out.append(byte(0x80, 6, 0x3F))
            out.append(byte(0x80, 0, 0x3F))
        }
    }

    private func controlCharacter(at path: JSONPath) -> JSONInputError {
        let byte = bytes[index]
        let (name, escape): (String, String) = switch byte {
        case ASCII.tab: ("tab", "\\t")
        case ASCII.newline: ("line break", "\\n")
        case ASCII.carriageReturn: ("carriage return", "\\r")
        default: ("control character \(unicodeName(byte))", JSONString.unicodeEscape(byte))
        }
        let hint = byte == ASCII.newline ? " (or is a closing quote missing?)" : ""
        return syntax("unescaped \(name) in a string; write it as '\(escape)'\(hint)", at: path)
    }

    private func loneSurrogate(from backslash: Int, at path: JSONPath) -> JSONInputError {
        let text = String(decoding: bytes[backslash..<min(backslash + 6, bytes.count)], as: UTF8.self)
        return syntax("lone surrogate '\(text)' in a string; \\ud800-\\udfff must come in pairs", at: path, offset: backslash)
    }

    private func invalidUTF8(at path: JSONPath) -> JSONInputError {
        syntax("invalid utf-8 byte \(hexByte(bytes[index])) in a string", at: path)
    }
}
