import Foundation

/// Access to the single `personal-rules-v1` record of the private database.
///
/// The CloudKit implementation is Apple-only; `InMemoryCloudTransport` stands in here.
public protocol CloudRecordTransport: Sendable {
    /// The current record, or nil when no device has saved one yet.
    /// - Throws: `CloudTransportError`.
    func fetch() async throws(CloudTransportError) -> CloudRecord?
    /// Replaces the record if its change tag is still `expectedTag` (nil: create, fails if one exists).
    /// - Returns: The new change tag.
    /// - Throws: `CloudTransportError.conflict` when the tag is stale, or another transport error.
    func save(rules: Data, expectedTag: String?) async throws(CloudTransportError) -> String
}
