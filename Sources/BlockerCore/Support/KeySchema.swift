import StrictJSON
import Suggestion

/// The keys allowed at each JSON position, for rejecting unknown keys.
public struct KeySchema: Sendable {
    /// Keys allowed in this object; nil means any key.
    let allowed: Set<String>?
    /// Schema of each key's value (objects, or objects inside lists).
    let children: [String: KeySchema]
    /// Schema for array elements (when this node is a list).
    let element: KeySchemaBox?

    /// Creates a schema node.
    public init(allowed: Set<String>?, children: [String: KeySchema] = [:], element: KeySchema? = nil) {
        self.allowed = allowed
        self.children = children
        self.element = element.map(KeySchemaBox.init)
    }

    /// A list whose elements follow `element`.
    public static func list(_ element: KeySchema) -> KeySchema { KeySchema(allowed: nil, element: element) }

    /// Moves the scanner past the value at its position, checking the value's keys.
    ///
    /// The scan goes on after an unknown key, so that a syntax error later in the file is
    /// still reported first; the first unknown key is kept in `unknownKey`.
    /// - Throws: `JSONInputError` (syntax) when the value is malformed.
    func scan(
        _ scanner: inout JSONScanner, at path: @autoclosure () -> JSONPath, file: String, unknownKey: inout InputError?
    ) throws(JSONInputError) {
        switch scanner.peekKind() {
        case .array:
            guard let element else { return try scanner.skipValue(at: path()) }
            try scanner.readArray(at: path()) { (scanner: inout JSONScanner, index: Int) throws(JSONInputError) in
                try element.schema.scan(&scanner, at: path().appending(index: index), file: file, unknownKey: &unknownKey)
            }
        case .object:
            try scanner.readObject(at: path()) { (scanner: inout JSONScanner, key: String) throws(JSONInputError) in
                if unknownKey == nil, let allowed, !allowed.contains(key) {
                    // A different case is the likeliest slip (urlfilter for urlFilter); else the nearest key.
                    let hint = allowed.first { $0.lowercased() == key.lowercased() }.map { "; did you mean '\($0)'?" }
                        ?? Suggestion.hint(for: key, in: allowed)
                    let location = JSONLocation(offset: scanner.keyOffset, in: scanner.bytes)
                    unknownKey = InputError(file: file, line: location.line, column: location.column,
                                            path: path().appending(key: key).description, message: "unknown key '\(key)'\(hint)")
                }
                if let child = children[key] {
                    try child.scan(&scanner, at: path().appending(key: key), file: file, unknownKey: &unknownKey)
                } else {
                    try scanner.skipValue(at: path().appending(key: key))
                }
            }
        default:
            try scanner.skipValue(at: path())
        }
    }
}

/// Indirection so `KeySchema` can nest itself.
final class KeySchemaBox: Sendable {
    let schema: KeySchema
    init(_ schema: KeySchema) { self.schema = schema }
}
