import Foundation

/// Encodes and decodes rule documents in the shared JSON shape (docs/personal-rules-format.md).
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
        var out = String()
        out.reserveCapacity(64 + document.collection.count * 112)
        out += "{\"format\":\"\(formatName)\",\"version\":\(version),\"rules\":["
        var first = true
        for record in document.collection.records {
            out += first ? "\n" : ",\n"
            first = false
            out += "{\"id\":"
            appendJSONString(record.id, to: &out)
            out += ",\"hostname\":"
            appendJSONString(record.hostname, to: &out)
            out += ",\"selector\":"
            appendJSONString(record.selector, to: &out)
            out += ",\"modifiedAt\":\(record.modifiedAt),\"deleted\":\(record.deleted)}"
        }
        out += first ? "]" : "\n]"
        if !document.migrations.isEmpty {
            out += ",\"migrations\":["
            out += document.migrations.map { name in
                var quoted = ""
                appendJSONString(name, to: &quoted)
                return quoted
            }.joined(separator: ",")
            out += "]"
        }
        out += "}\n"
        return Data(out.utf8)
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

    private static func appendJSONString(_ value: String, to out: inout String) {
        out += "\""
        // Fast path: most ids, hostnames and selectors need no escaping at all.
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            out += value
        } else {
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
