/// The extension's browser-local rule storage, as the one-time migration sees it.
///
/// On Apple platforms the extension owns this storage (browser.storage.local) and
/// plays this role through the native bridge's `migrate` message; tests use a fake.
public protocol BrowserLocalRuleSource: AnyObject {
    /// Whether this storage was already handed to the shared file.
    /// - Throws: whatever the storage throws.
    func isMigrated() throws -> Bool
    /// The browser-local records, deletion markers included.
    /// - Throws: whatever the storage throws.
    func loadRules() throws -> RuleCollection
    /// Records that the shared file now holds these rules. The local rules stay,
    /// as the spec asks not to delete old storage until migration is complete.
    /// - Throws: whatever the storage throws.
    func markMigrated() throws
}
