/// One personal cosmetic filter, or the deletion marker (tombstone) that replaced it.
///
/// A record is identified by `id` for its whole life: edits and deletion keep the id
/// and raise `modifiedAt`, so any two versions of the same rule can be ordered by
/// `supersedes(_:)` without knowing where they came from.
public struct PersonalRule: Sendable, Hashable {
    /// Stable identity, ASCII `[A-Za-z0-9._:-]`, 1 to 128 characters.
    public var id: String
    /// The normalized hostname the filter applies to (exact host, no subdomains).
    public var hostname: String
    /// The CSS selector of the elements to hide.
    public var selector: String
    /// Last modification, milliseconds since 1970-01-01 UTC, as seen by the editing device's clock.
    public var modifiedAt: Int64
    /// True for a deletion marker; kept so an offline device cannot restore the rule.
    public var deleted: Bool

    /// Creates a record; validation happens when a collection is decoded or checked.
    public init(id: String, hostname: String, selector: String, modifiedAt: Int64, deleted: Bool = false) {
        self.id = id
        self.hostname = hostname
        self.selector = selector
        self.modifiedAt = modifiedAt
        self.deleted = deleted
    }
}

extension PersonalRule {
    /// Whether this version replaces `other`, another version of the same id, in a merge.
    ///
    /// A total order, so merge is a join and therefore commutative, associative and
    /// idempotent: later `modifiedAt` first; on equal times a deletion marker; then the
    /// larger hostname, then the larger selector, both compared by UTF-16 code units
    /// (what JavaScript's `<` does, so the extension resolves ties the same way).
    /// Identical records supersede neither way.
    public func supersedes(_ other: PersonalRule) -> Bool {
        if modifiedAt != other.modifiedAt { return modifiedAt > other.modifiedAt }
        if deleted != other.deleted { return deleted }
        if hostname != other.hostname { return UTF16Order.precedes(other.hostname, hostname) }
        if selector != other.selector { return UTF16Order.precedes(other.selector, selector) }
        return false
    }
}
