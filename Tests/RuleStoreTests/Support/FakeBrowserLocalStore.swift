import RuleStore

/// browser.storage.local as the migration sees it: rules plus a migrated flag, surviving "restarts".
final class FakeBrowserLocalStore: BrowserLocalRuleSource {
    var rules: RuleCollection
    var migrated = false
    private(set) var loads = 0

    init(_ rules: RuleCollection) { self.rules = rules }

    func isMigrated() throws -> Bool { migrated }
    func loadRules() throws -> RuleCollection {
        loads += 1
        return rules
    }
    func markMigrated() throws { migrated = true }
}
