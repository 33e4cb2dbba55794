/// A DNR `ModifyHeaderInfo`: one header change of a `modifyHeaders` action.
public struct DNRModifyHeaderInfo: Codable, Sendable, Hashable {
    /// A DNR `HeaderOperation`.
    public enum Operation: String, Codable, Sendable, Hashable {
        case append, set, remove
    }

    /// The header name.
    public var header: String
    /// What to do with it.
    public var operation: Operation
    /// The value for `append` and `set`; absent for `remove`.
    public var value: String?

    /// Creates a header change.
    public init(header: String, operation: Operation, value: String? = nil) {
        self.header = header
        self.operation = operation
        self.value = value
    }
}
