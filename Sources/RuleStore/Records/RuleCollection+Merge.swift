extension RuleCollection {
    /// The union of both collections, keeping for each id the version that supersedes.
    ///
    /// Because `PersonalRule.supersedes(_:)` is a total order per id, this is a
    /// join: `a.merged(with: b) == b.merged(with: a)`, grouping does not matter,
    /// and merging a collection with itself changes nothing. Tombstones are kept.
    public func merged(with other: RuleCollection) -> RuleCollection {
        // Iterate the smaller side to keep the hot path of a sync (a few local
        // edits against a large remote collection) cheap.
        let (base, incoming) = count >= other.count ? (self, other) : (other, self)
        var result = base
        result.recordsByID.reserveCapacity(base.count + incoming.count)
        for record in incoming.recordsByID.values { result.insertMerging(record) }
        return result
    }
}
