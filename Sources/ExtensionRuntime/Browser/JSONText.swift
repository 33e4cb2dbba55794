import Foundation

/// Helpers over JSON text as JavaScript's `JSON.stringify` writes it (well-formed, no spaces).
///
/// Storage and messages keep values as canonical JSON text: nothing is shared by reference
/// between contexts (as with structured cloning), and traces print exactly what was stored.
enum JSONText {
    /// The kind of the top-level value.
    enum Kind { case object, array, string, number, boolean, null }

    static func kind(_ json: String) -> Kind {
        switch json.utf8.first {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .boolean
        case UInt8(ascii: "n"): return .null
        default: return .number
        }
    }

    /// The members of a top-level array or object, as raw texts: for an object alternating
    /// key (a JSON string) and value.
    private static func members(_ json: String) -> [String] {
        var text = json
        // Scans the string's own UTF-8 storage (no copy of what may be a large value).
        return text.withUTF8 { bytes in scanMembers(bytes) }
    }

    private static func scanMembers(_ bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        memberRanges(bytes).map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    /// Where the members of the top-level array or object in `bytes` lie (for an object,
    /// alternating key and value), without copying any of them.
    static func memberRanges(_ bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        guard bytes.count >= 2 else { return [] }
        var result: [Range<Int>] = []
        var depth = 0
        var inString = false
        var escaped = false
        var start = 1
        for index in 1..<(bytes.count - 1) {
            let byte = bytes[index]
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: ","), UInt8(ascii: ":"):
                if depth == 0 {
                    result.append(start..<index)
                    start = index + 1
                }
            default: break
            }
        }
        if start < bytes.count - 1 { result.append(start..<(bytes.count - 1)) }
        return result
    }

    /// The (key, value JSON) pairs of an object, in order.
    static func entries(_ json: String) -> [(key: String, value: String)] {
        guard kind(json) == .object else { return [] }
        let parts = members(json)
        return stride(from: 0, to: parts.count - 1, by: 2).map { (decodeString(parts[$0]), parts[$0 + 1]) }
    }

    /// The element JSON texts of an array.
    static func elements(_ json: String) -> [String] {
        guard kind(json) == .array else { return [] }
        return members(json)
    }

    /// Decodes a JSON string literal.
    static func decodeString(_ json: String) -> String {
        // Fast path: a literal without escapes is its text between the quotes (most keys).
        let utf8 = json.utf8
        if utf8.count >= 2, utf8.first == UInt8(ascii: "\""), utf8.last == UInt8(ascii: "\""), !utf8.contains(UInt8(ascii: "\\")) {
            return String(decoding: utf8.dropFirst().dropLast(), as: UTF8.self)
        }
        guard let data = "[\(json)]".data(using: .utf8),
              let array = try? JSONSerialization.jsonObject(with: data) as? [Any],
              let text = array.first as? String else { return json }
        return text
    }

    /// A JSON string literal for `text`, escaped as JSON.stringify does.
    static func string(_ text: String) -> String {
        // Fast path: nothing to escape.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + text + "\""
        }
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// An object from pairs, keys sorted (canonical form).
    static func object(_ pairs: [(String, String)]) -> String {
        "{" + pairs.sorted { $0.0 < $1.0 }.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    /// An array from element texts.
    static func array(_ elements: [String]) -> String { "[" + elements.joined(separator: ",") + "]" }
}
