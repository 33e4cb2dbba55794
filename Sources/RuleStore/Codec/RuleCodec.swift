import Foundation

/// Encodes and decodes rule documents in the shared JSON shape (fixtures/rules/README.md).
public enum RuleCodec {
    /// The `format` value every document carries.
    public static let formatName = "adv-personal-rules"
    /// The only document version this build reads and writes.
    public static let version = 1
    /// The spec's 500 KB cap on the complete collection, in decimal bytes.
    ///
    /// 500 KB is read as 500 × 1000 bytes: the stricter of the two readings, so a
    /// collection accepted here fits whichever one the other side applies.
    public static let sizeLimit = 500_000

    /// Canonical bytes of `document`: records sorted by id, one per line, fixed key order.
    ///
    /// No size check; use `encodeChecked(_:)` for anything that is stored or uploaded.
    public static func encode(_ document: RuleDocument) -> Data {
        // Built as bytes: String interpolation per field cost more than the sort.
        var out: [UInt8] = []
        out.reserveCapacity(64 + document.collection.count * 112)
        append("{\"format\":\"\(formatName)\",\"version\":\(version),\"rules\":[", to: &out)
        var first = true
        for record in document.collection.records {
            append(first ? "\n{\"id\":" : ",\n{\"id\":", to: &out)
            first = false
            appendJSONString(record.id, to: &out)
            append(",\"hostname\":", to: &out)
            appendJSONString(record.hostname, to: &out)
            append(",\"selector\":", to: &out)
            appendJSONString(record.selector, to: &out)
            append(",\"modifiedAt\":", to: &out)
            appendInteger(record.modifiedAt, to: &out)
            append(record.deleted ? ",\"deleted\":true}" : ",\"deleted\":false}", to: &out)
        }
        append(first ? "]" : "\n]", to: &out)
        if !document.migrations.isEmpty {
            append(",\"migrations\":[", to: &out)
            for (index, name) in document.migrations.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                appendJSONString(name, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        append("}\n", to: &out)
        return Data(out)
    }

    /// Canonical bytes of `document`, refused when they exceed `sizeLimit`.
    /// - Throws: `RuleStoreError.collectionTooLarge` with the encoded size.
    public static func encodeChecked(_ document: RuleDocument) throws(RuleStoreError) -> Data {
        let data = encode(document)
        guard data.count <= sizeLimit else {
            throw .collectionTooLarge(file: nil, bytes: data.count, limit: sizeLimit)
        }
        return data
    }

    /// The `rules` bytes of the `personal-rules-v1` cloud record for `collection`.
    /// - Throws: `RuleStoreError.collectionTooLarge` over 500 KB.
    public static func recordBytes(_ collection: RuleCollection) throws(RuleStoreError) -> Data {
        try encodeChecked(RuleDocument(collection: collection))
    }

    private static func append(_ text: String, to out: inout [UInt8]) {
        out.append(contentsOf: text.utf8)
    }

    private static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: [UInt8] = []
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        out.append(contentsOf: digits.reversed())
    }

    private static func appendJSONString(_ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case ..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                        hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default:
                // Multi-byte UTF-8 passes through unchanged: JSON allows it unescaped.
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
