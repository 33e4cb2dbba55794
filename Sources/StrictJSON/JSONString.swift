/// Writes strings as JSON string literals (RFC 8259 section 7), for paths and canonical text.
enum JSONString {
    /// `value` in double quotes with `"`, `\` and control characters escaped; `/` and
    /// non-ASCII characters are written as they are.
    static func quoted(_ value: String) -> String {
        var out: [UInt8] = [ASCII.quote]
        out.reserveCapacity(value.utf8.count + 2)
        for byte in value.utf8 {
            switch byte {
            case ASCII.quote: out += [ASCII.backslash, ASCII.quote]
            case ASCII.backslash: out += [ASCII.backslash, ASCII.backslash]
            case ASCII.newline: out += [ASCII.backslash, UInt8(ascii: "n")]
            case ASCII.carriageReturn: out += [ASCII.backslash, UInt8(ascii: "r")]
            case ASCII.tab: out += [ASCII.backslash, UInt8(ascii: "t")]
            case 0x08: out += [ASCII.backslash, UInt8(ascii: "b")]
            case 0x0C: out += [ASCII.backslash, UInt8(ascii: "f")]
            case ..<0x20: out += Array(unicodeEscape(byte).utf8)
            default: out.append(byte)
            }
        }
        out.append(ASCII.quote)
        return String(decoding: out, as: UTF8.self)
    }

    /// `\u001f` for a control byte.
    static func unicodeEscape(_ byte: UInt8) -> String {
        let hex = String(byte, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}
