extension JSONScanner {
    /// A shape error at `offset` (default: the current position), for readers that find a
    /// value they cannot use (a missing key, a value out of range).
    public func error(_ message: String, at path: JSONPath, offset: Int? = nil) -> JSONInputError {
        failure(message, at: path, offset: offset ?? index, kind: .shape)
    }

    /// A syntax error at `offset` (default: the current position).
    func syntax(_ message: String, at path: JSONPath, offset: Int? = nil) -> JSONInputError {
        failure(message, at: path, offset: offset ?? index, kind: .syntax)
    }

    /// The input ended inside a value.
    func truncated(_ context: String, at path: JSONPath) -> JSONInputError {
        syntax("unexpected end of input \(context) (truncated?)", at: path, offset: bytes.count)
    }

    func failure(_ message: String, at path: JSONPath, offset: Int, kind: JSONInputError.Kind) -> JSONInputError {
        let location = JSONLocation(offset: offset, in: bytes)
        return JSONInputError(line: location.line, column: location.column, path: path.description, message: message,
                              offset: location.offset, kind: kind)
    }

    /// The value at `index` is not `expected`: a shape error naming what is there instead,
    /// unless what is there is not JSON at all, which is the syntax error it is.
    func mismatch(_ expected: String, at path: @autoclosure () -> JSONPath) -> JSONInputError {
        var probe = self
        probe.skipWhitespace()
        let start = probe.index
        do {
            try probe.skipValue(at: path())
        } catch {
            return error
        }
        let what: String = switch bytes[start] {
        case ASCII.openBrace: "an object"
        case ASCII.openBracket: "an array"
        case ASCII.quote: "a string"
        default: "'" + String(decoding: bytes[start..<probe.index].prefix(40), as: UTF8.self) + "'"
        }
        return failure("expected \(expected), found \(what)", at: path(), offset: start, kind: .shape)
    }

    /// Why no value starts at `index`: truncation, a spelling JSON does not allow (`NaN`,
    /// `+1`, `.5`, `True`) or an unexpected character.
    func invalidValue(at path: JSONPath) -> JSONInputError {
        guard let byte = peek() else { return truncated("where a value should be", at: path) }
        let word = token(from: index)
        switch byte {
        case ASCII.plus:
            return syntax("numbers cannot start with '+' ('\(word)')", at: path)
        case ASCII.dot:
            return syntax("numbers need a digit before the '.' ('\(word)')", at: path)
        case _ where ASCII.isLetter(byte):
            if word == "NaN" || word == "Infinity" {
                return syntax("'\(word)' is not json; numbers must be finite", at: path)
            }
            if index + word.utf8.count == bytes.count, ["true", "false", "null"].contains(where: { $0.hasPrefix(word) }) {
                return truncated("in '\(word)'", at: path)
            }
            return syntax("unknown literal '\(word)'; json has only true, false and null", at: path)
        case ASCII.quote:
            return syntax("expected a value, found '\"'", at: path)
        default:
            return syntax("expected a value, found \(found(at: index))", at: path)
        }
    }

    /// The run of letters, digits and number punctuation at `start`, to quote in a message.
    func token(from start: Int) -> String {
        var end = start
        while end < bytes.count, end - start < 40 {
            let byte = bytes[end]
            guard ASCII.isLetter(byte) || ASCII.isDigit(byte) || byte == ASCII.dot || byte == ASCII.plus
                || byte == ASCII.minus || byte == UInt8(ascii: "_") else { break }
            end += 1
        }
        return String(decoding: bytes[start..<max(end, start + 1)], as: UTF8.self)
    }

    /// The byte (or character) at `offset` as a message names it: `'x'`, `'é'`, `U+0001`,
    /// `invalid utf-8 byte 0xff`, or `the end of the input`.
    func found(at offset: Int) -> String {
        guard offset < bytes.count else { return "the end of the input" }
        let byte = bytes[offset]
        if byte < 0x20 || byte == 0x7F { return unicodeName(byte) }
        if byte < 0x80 { return "'\(printable(byte))'" }
        var probe = self
        probe.index = offset
        guard let length = try? probe.utf8Sequence(at: { .root }) else { return "invalid utf-8 byte \(hexByte(byte))" }
        return "'" + String(decoding: bytes[offset..<offset + length], as: UTF8.self) + "'"
    }

    func printable(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : unicodeName(byte)
    }

    /// `U+0009`
    func unicodeName(_ byte: UInt8) -> String {
        let hex = String(byte, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: 4 - hex.count) + hex
    }

    /// `0xff`
    func hexByte(_ byte: UInt8) -> String {
        let hex = String(byte, radix: 16)
        return "0x" + (hex.count == 1 ? "0" : "") + hex
    }
}
