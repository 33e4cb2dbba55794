import Foundation

/// Typed access to one JSON object of a bridge message, with key-path errors.
struct BridgeMessage {
    private let fields: [String: Any]
    private let path: String

    /// - Throws: `RuleStoreError.invalidDocument` when `value` is not an object.
    init(_ value: Any, at path: String = "") throws(RuleStoreError) {
        guard let fields = value as? [String: Any] else {
            throw .invalidDocument(file: nil, keyPath: path, reason: "expected an object")
        }
        self.fields = fields
        self.path = path
    }

    private func keyPath(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    private func required<T>(_ key: String, _ kind: String) throws(RuleStoreError) -> T {
        guard let raw = fields[key] else { throw .invalidDocument(file: nil, keyPath: path, reason: "missing key '\(key)'") }
        guard let value = raw as? T, !(raw is NSNull) else {
            throw .invalidDocument(file: nil, keyPath: keyPath(key), reason: "expected \(kind)")
        }
        return value
    }

    func string(_ key: String) throws(RuleStoreError) -> String { try required(key, "a string") }
    func array(_ key: String) throws(RuleStoreError) -> [Any] { try required(key, "an array") }
    func object(_ key: String) throws(RuleStoreError) -> [String: Any] { try required(key, "an object") }

    func optionalString(_ key: String) throws(RuleStoreError) -> String? {
        guard let raw = fields[key], !(raw is NSNull) else { return nil }
        guard let value = raw as? String else {
            throw .invalidDocument(file: nil, keyPath: keyPath(key), reason: "expected a string")
        }
        return value
    }

    func optionalBool(_ key: String) throws(RuleStoreError) -> Bool? {
        guard let raw = fields[key], !(raw is NSNull) else { return nil }
        guard let value = raw as? Bool else {
            throw .invalidDocument(file: nil, keyPath: keyPath(key), reason: "expected true or false")
        }
        return value
    }
}
