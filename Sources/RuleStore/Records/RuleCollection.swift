/// A set of personal rule records keyed by stable id, tombstones included.
///
/// This is what the `rules` bytes of the `personal-rules-v1` cloud record, the
/// shared App Group file and the extension's browser-local storage all hold.
public struct RuleCollection: Sendable, Equatable {
    /// Every record, live and deleted, by id.
    public internal(set) var recordsByID: [String: PersonalRule]

    /// An empty collection.
    public init() { recordsByID = [:] }

    /// A collection of `records`; for duplicate ids the superseding version is kept.
    public init<S: Sequence>(_ records: S) where S.Element == PersonalRule {
        recordsByID = [:]
        for record in records { insertMerging(record) }
    }

    /// All records sorted by id, the order they are encoded in.
    ///
    /// Valid ids are ASCII, where Swift's `<`, byte order and JavaScript's UTF-16
    /// order all agree; `<` has an ASCII fast path the generic UTF-16 walk lacks.
    public var records: [PersonalRule] {
        recordsByID.values.sorted { $0.id < $1.id }
    }

    /// Records that are not deletion markers, sorted by hostname, then selector, then id.
    public var liveRules: [PersonalRule] {
        recordsByID.values.filter { !$0.deleted }.sorted {
            ($0.hostname, $0.selector, $0.id) < ($1.hostname, $1.selector, $1.id)
        }
    }

    /// Number of records, tombstones included.
    public var count: Int { recordsByID.count }

    /// Number of deletion markers.
    public var tombstoneCount: Int { recordsByID.values.reduce(0) { $0 + ($1.deleted ? 1 : 0) } }

    /// The record with `id`, live or deleted.
    public subscript(id: String) -> PersonalRule? { recordsByID[id] }

    /// Adds `record`, keeping whichever version of its id supersedes the other.
    public mutating func insertMerging(_ record: PersonalRule) {
        if let existing = recordsByID[record.id], !record.supersedes(existing) { return }
        recordsByID[record.id] = record
    }
}
