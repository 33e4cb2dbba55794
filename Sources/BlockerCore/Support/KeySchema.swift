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

    func check(_ value: Any, path: String, file: String) throws {
        if let array = value as? [Any] {
            guard let element else { return }
            for (index, item) in array.enumerated() {
                try element.schema.check(item, path: path + "[\(index)]", file: file)
            }
        } else if let object = value as? [String: Any] {
            for key in object.keys.sorted() {
                let childPath = path.isEmpty ? key : path + "." + key
                if let allowed, !allowed.contains(key) {
                    let hint = allowed.first { $0.lowercased() == key.lowercased() }.map { "; did you mean '\($0)'?" } ?? ""
                    throw InputError(file: file, position: childPath, message: "unknown key '\(key)'\(hint)")
                }
                if let child = children[key], let childValue = object[key] {
                    try child.check(childValue, path: childPath, file: file)
                }
            }
        }
    }
}

/// Indirection so `KeySchema` can nest itself.
final class KeySchemaBox: Sendable {
    let schema: KeySchema
    init(_ schema: KeySchema) { self.schema = schema }
}
