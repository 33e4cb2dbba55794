import Foundation

extension JSONValue {
    /// Parses one strict JSON document (RFC 8259; see `JSONScanner` for what is refused).
    /// - Parameter maxDepth: the most objects and arrays that may be open at once.
    /// - Throws: `JSONInputError` with the line, column and path of the first problem.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = 512) throws(JSONInputError) -> JSONValue {
        var scanner = JSONScanner(bytes, maxDepth: maxDepth)
        return try scanner.readDocument { (scanner: inout JSONScanner) throws(JSONInputError) in
            try scanner.readValue(at: .root)
        }
    }

    /// Parses one strict JSON document from `data`.
    /// - Throws: `JSONInputError` with the line, column and path of the first problem.
    public static func parse(_ data: Data, maxDepth: Int = 512) throws(JSONInputError) -> JSONValue {
        try parse([UInt8](data), maxDepth: maxDepth)
    }

    /// Parses one strict JSON document from `text` (a leading U+FEFF is refused like a byte-order mark).
    /// - Throws: `JSONInputError` with the line, column and path of the first problem.
    public static func parse(_ text: String, maxDepth: Int = 512) throws(JSONInputError) -> JSONValue {
        try parse(Array(text.utf8), maxDepth: maxDepth)
    }
}
