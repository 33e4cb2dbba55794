extension RuleJSONReader {
    // MARK: - Scalars

    mutating func readString(at path: @autoclosure () -> String) throws(RuleStoreError) -> String {
        skipWhitespace()
        guard peek() == UInt8(ascii: "\"") else { throw mismatch("a string", at: path()) }
        return try readRawString()
    }

    mutating func readBool(at path: @autoclosure () -> String) throws(RuleStoreError) -> Bool {
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return true
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return false
        default: throw mismatch("true or false", at: path())
        }
    }

    mutating func readInteger(at path: @autoclosure () -> String) throws(RuleStoreError) -> Int64 {
        skipWhitespace()
        let start = index
        guard let first = peek(), first == UInt8(ascii: "-") || isDigit(first) else { throw mismatch("an integer", at: path()) }
        let negative = first == UInt8(ascii: "-")
        if negative { index += 1 }
        var value: Int64 = 0
        var digits = 0
        var overflow = false
        while let byte = peek(), isDigit(byte) {
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (plus, o2) = times.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            overflow = overflow || o1 || o2
            value = plus
            digits += 1
            index += 1
        }
        if digits == 0 { throw syntax("expected a digit") }
        if digits > 1, bytes[start + (negative ? 1 : 0)] == UInt8(ascii: "0") {
            index = start  // point at the number, not past it
            throw syntax("numbers cannot have leading zeros")
        }
        if let byte = peek(), byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            throw RuleStoreError.invalidDocument(file: nil, keyPath: path(), reason: "expected an integer")
        }
        if overflow { throw RuleStoreError.invalidDocument(file: nil, keyPath: path(), reason: "integer is too large") }
        return negative ? -value : value
    }

    mutating func skipNumber() throws(RuleStoreError) {
        let start = index
        while let byte = peek(), isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            index += 1
        }
        if index == start { throw syntax("unexpected character") }
    }

    /// A quoted string at `index`, unescaped; the opening quote is at `index`.
    mutating func readRawString() throws(RuleStoreError) -> String {
        index += 1
        let start = index
        // Fast path: no escapes, so the bytes between the quotes are the string.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                guard let text = String(validating: bytes[start..<index], as: UTF8.self) else {
                    throw syntax("string is not valid utf-8")
                }
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw syntax("control character in a string") }
            index += 1
        }
        var scalars: [UInt8] = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: scalars, as: UTF8.self) else { throw syntax("string is not valid utf-8") }
                index += 1
                return text
            case UInt8(ascii: "\\"):
                index += 1
                guard let escape = peek() else { break }
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escape)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"): scalars.append(contentsOf: try readUnicodeEscape())
                default: throw syntax("unknown escape in a string")
                }
            default:
                if byte < 0x20 { throw syntax("control character in a string") }
                scalars.append(byte)
                index += 1
            }
        }
        throw syntax("unexpected end inside a string (truncated?)")
    }

    /// The UTF-8 bytes of a `\uXXXX` escape (the `\u` already read), joining surrogate pairs.
    mutating func readUnicodeEscape() throws(RuleStoreError) -> [UInt8] {
        var code = try readHex4()
        if (0xD800..<0xDC00).contains(code) {
            guard peek() == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                throw syntax("unpaired surrogate in a string")
            }
            index += 2
            let low = try readHex4()
            guard (0xDC00..<0xE000).contains(low) else { throw syntax("unpaired surrogate in a string") }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(code) {
            throw syntax("unpaired surrogate in a string")
        }
        guard let scalar = Unicode.Scalar(code) else { throw syntax("invalid \\u escape") }
        return Array(String(Character(scalar)).utf8)
    }

    mutating func readHex4() throws(RuleStoreError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw syntax("unexpected end inside a string (truncated?)") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw syntax("invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    mutating func expectLiteral(_ literal: StaticString) throws(RuleStoreError) {
        let count = literal.utf8CodeUnitCount
        let matches = index + count <= bytes.count && literal.withUTF8Buffer { expected in
            expected.elementsEqual(bytes[index..<index + count])
        }
        guard matches else {
            throw index + count > bytes.count ? syntax("unexpected end (truncated?)") : syntax("unexpected character")
        }
        index += count
    }

    // MARK: - Helpers

    func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    func missing(_ key: String, at path: String) -> RuleStoreError {
        .invalidDocument(file: nil, keyPath: path, reason: "missing key '\(key)'")
    }

    /// A type error at `path`, or a syntax error if the input ends or is not JSON there.
    func mismatch(_ expected: String, at path: @autoclosure () -> String) -> RuleStoreError {
        guard let byte = peek() else { return syntax("unexpected end (truncated?)") }
        let startsValue = byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "\"")
            || byte == UInt8(ascii: "t") || byte == UInt8(ascii: "f") || byte == UInt8(ascii: "n")
            || byte == UInt8(ascii: "-") || isDigit(byte)
        guard startsValue else { return syntax("unexpected character") }
        return .invalidDocument(file: nil, keyPath: path(), reason: "expected \(expected)")
    }

    /// `not valid json at line 3, column 17: <problem>`, counting columns in bytes from 1.
    func syntax(_ problem: String) -> RuleStoreError {
        var line = 1, column = 1
        for byte in bytes[..<min(index, bytes.count)] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return .invalidDocument(file: nil, keyPath: "", reason: "not valid json at line \(line), column \(column): \(problem)")
    }
}
