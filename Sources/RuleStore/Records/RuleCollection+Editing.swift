extension RuleCollection {
    /// Adds or edits the rule `id`, stamping it so the edit wins over every version seen here.
    ///
    /// The stamp is `max(now, previous.modifiedAt + 1)`: a device whose clock runs behind
    /// another's still orders its own edit after the version it edited.
    /// - Returns: The stored record.
    @discardableResult
    public mutating func upsert(id: String, hostname: String, selector: String, now: Int64) -> PersonalRule {
        let record = PersonalRule(
            id: id, hostname: hostname, selector: selector,
            modifiedAt: stamp(for: id, now: now), deleted: false)
        recordsByID[id] = record
        return record
    }

    /// Replaces the rule `id` by a deletion marker stamped like `upsert`; unknown ids are ignored.
    /// - Returns: The tombstone, or nil when `id` is unknown or already deleted.
    @discardableResult
    public mutating func delete(id: String, now: Int64) -> PersonalRule? {
        guard let existing = recordsByID[id], !existing.deleted else { return nil }
        var tombstone = existing
        tombstone.modifiedAt = stamp(for: id, now: now)
        tombstone.deleted = true
        recordsByID[id] = tombstone
        return tombstone
    }

    private func stamp(for id: String, now: Int64) -> Int64 {
        guard let previous = recordsByID[id]?.modifiedAt, previous < Int64.max else { return now }
        return Swift.max(now, previous + 1)
    }
}
