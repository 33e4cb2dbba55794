import RuleStore

/// browser.storage.local as the migration sees it: rules plus a migrated flag, surviving "restarts".
package final class FakeBrowserLocalStore: BrowserLocalRuleSource {
    package var rules: RuleCollection
    package var migrated = false
    private(set) var loads = 0

    package init(_ rules: RuleCollection) { self.rules = rules }

    package func isMigrated() throws -> Bool { migrated }
    package func loadRules() throws -> RuleCollection {
        loads += 1
        return rules
    }
    package func markMigrated() throws { migrated = true }
}
