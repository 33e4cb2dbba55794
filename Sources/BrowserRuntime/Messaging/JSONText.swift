import Foundation
import WebRuntime

/// Helpers over JSON text as JavaScript's `JSON.stringify` writes it (well-formed, no spaces).
///
/// Storage and messages keep values as canonical JSON text: nothing is shared by reference
/// between contexts (as with structured cloning), and traces print exactly what was stored.
package enum JSONText {
    /// A number as JSON.stringify writes it for the values the runtime makes (times, counts):
    /// integral values without a fraction.
    package static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// The kind of the top-level value.
    package enum Kind { case object, array, string, number, boolean, null }

    package static func kind(_ json: String) -> Kind {
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

    /// An object's keys and value JSON texts (a repeated key keeps its last value; none for
    /// anything but an object, nil included).
    package static func fields(_ json: String?) -> [String: String] {
        Dictionary(entries(json ?? "null").map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
    }

    /// The element JSON texts of an array.
    static func elements(_ json: String) -> [String] {
        guard kind(json) == .array else { return [] }
        return members(json)
    }

    /// Decodes a JSON string literal.
    package static func decodeString(_ json: String) -> String {
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
    package static func string(_ text: String) -> String {
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

    /// The same value with every object's keys in JS/canonical.js's order: array-index keys
    /// ascending, then the others by UTF-16 code units (`Array.prototype.sort`'s default order),
    /// as a sorted copy of the object enumerates them. For a message, whose text crosses as
    /// `JSON.stringify` wrote it: its canonical text for the trace costs no second serialization
    /// in the sender's realm.
    static func canonical(_ json: String) -> String {
        // No object anywhere (a string, a number, an array of them): already canonical.
        guard json.utf8.contains(UInt8(ascii: "{")) else { return json }
        var text = json
        return text.withUTF8 { bytes in
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            appendCanonical(bytes, to: &out)
            return String(decoding: out, as: UTF8.self)
        }
    }

    private static func appendCanonical(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        guard let first = bytes.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
              bytes.contains(UInt8(ascii: "{")) else {
            out.append(contentsOf: bytes)
            return
        }
        let ranges = memberRanges(bytes)
        func part(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: bytes[range]) }
        out.append(first)
        if first == UInt8(ascii: "[") {
            for (index, range) in ranges.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                appendCanonical(part(range), to: &out)
            }
            out.append(UInt8(ascii: "]"))
            return
        }
        var members: [(key: String, index: UInt32?, keyRange: Range<Int>, valueRange: Range<Int>)] = []
        for offset in stride(from: 0, to: ranges.count - 1, by: 2) {
            let key = decodeString(String(decoding: part(ranges[offset]), as: UTF8.self))
            members.append((key, arrayIndex(key), ranges[offset], ranges[offset + 1]))
        }
        members.sort { a, b in
            switch (a.index, b.index) {
            case let (x?, y?): return x < y
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return a.key.utf16.lexicographicallyPrecedes(b.key.utf16)
            }
        }
        for (index, member) in members.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: part(member.keyRange))
            out.append(UInt8(ascii: ":"))
            appendCanonical(part(member.valueRange), to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// The key as an array index (ECMA-262 6.1.7: a canonical numeric string below 2³² − 1),
    /// which every object enumerates first, ascending.
    private static func arrayIndex(_ key: String) -> UInt32? {
        let utf8 = key.utf8
        guard let first = utf8.first, utf8.count <= 10, first != UInt8(ascii: "0") || utf8.count == 1,
              utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let value = UInt64(key), value < 4_294_967_295 else { return nil }
        return UInt32(value)
    }

    /// An object from pairs, keys sorted (canonical form).
    static func object(_ pairs: [(String, String)]) -> String {
        "{" + pairs.sorted { $0.0 < $1.0 }.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    /// An array from element texts.
    static func array(_ elements: [String]) -> String { "[" + elements.joined(separator: ",") + "]" }
}
