/// A rule collection as stored in a file, with the migrations already applied to it.
///
/// The cloud record's `rules` bytes carry the same document with `migrations` empty:
/// which browser-local stores were folded in is a fact about one device's App Group file.
public struct RuleDocument: Sendable, Equatable {
    /// The records.
    public var collection: RuleCollection
    /// Names of migration sources already merged in, e.g. `browser-local`, sorted.
    public var migrations: [String]

    /// Creates a document.
    public init(collection: RuleCollection = RuleCollection(), migrations: [String] = []) {
        self.collection = collection
        self.migrations = Array(Set(migrations)).sorted()
    }
}
