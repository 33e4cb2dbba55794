import Foundation
import TestSupport
import Testing
@testable import RuleStore

@Suite struct RuleMigrationTests {
    struct Crash: Error {}

    /// Shared rules before the migration: one the local side also edited (older), one it deleted.
    static let sharedBefore = RuleCollection([
        Support.rule("both", selector: ".shared-old", at: 100),
        Support.rule("gone-locally", selector: ".x", at: 100),
        Support.rule("shared-only", selector: ".y", at: 100),
    ])
    /// Browser-local rules: a newer edit, a deletion marker, a local-only rule and an old tombstone.
    static let local = RuleCollection([
        Support.rule("both", selector: ".local-new", at: 200),
        Support.rule("gone-locally", selector: ".x", at: 150, deleted: true),
        Support.rule("local-only", host: "news.example.org", selector: "#ad", at: 120),
        Support.rule("local-tombstone", selector: ".z", at: 90, deleted: true),
    ])

    func prepare() throws -> (SharedRuleFile, FakeBrowserLocalStore) {
        let file = SharedRuleFile(url: try Support.temporaryDirectory().appendingPathComponent("rules.json"))
        try file.update { $0.collection = Self.sharedBefore }
        return (file, FakeBrowserLocalStore(Self.local))
    }

    @Test func migrationMergesLocalRulesWithDeletionMarkers() throws {
        let (file, local) = try prepare()
        #expect(try RuleMigration.run(from: local, into: file) == .migrated(changed: 4))
        let document = try file.read()
        #expect(document.collection == Self.sharedBefore.merged(with: Self.local))
        #expect(document.collection["both"]?.selector == ".local-new")
        #expect(document.collection["gone-locally"]?.deleted == true)
        #expect(document.collection["local-tombstone"]?.deleted == true)
        #expect(document.migrations == [RuleMigration.browserLocalSource])
        #expect(local.migrated)
    }

    @Test(arguments: MigrationStep.all)
    func interruptionAtAnyStepStillMigratesExactlyOnce(step: MigrationStep) throws {
        let (file, local) = try prepare()
        #expect(throws: Crash.self) {
            try RuleMigration.run(from: local, into: file, hook: { if $0 == step { throw Crash() } })
        }
        // "Restart": a new handle on the same file and the same browser storage.
        let restarted = SharedRuleFile(url: file.url)
        let second = try RuleMigration.run(from: local, into: restarted)
        let committedBeforeCrash = MigrationStep.all.firstIndex(of: step)!
            >= MigrationStep.all.firstIndex(of: .sharedFile(.renamed))!
        #expect(second == (committedBeforeCrash ? .alreadyMigrated : .migrated(changed: 4)))
        let document = try restarted.read()
        #expect(document.collection == Self.sharedBefore.merged(with: Self.local))
        #expect(document.migrations == [RuleMigration.browserLocalSource])
        #expect(local.migrated)
        let bytes = try Data(contentsOf: file.url)
        #expect(try RuleMigration.run(from: local, into: restarted) == .alreadyMigrated)
        #expect(try Data(contentsOf: file.url) == bytes)
    }

    @Test func markerInTheSharedFilePreventsASecondMergeEvenIfTheLocalFlagIsLost() throws {
        let (file, local) = try prepare()
        _ = try RuleMigration.run(from: local, into: file)
        // After migrating, the rule is deleted through the shared file by another process...
        try file.update { $0.collection.delete(id: "local-only", now: 300) }
        // ...and the browser storage forgot its flag and gained an edit made meanwhile.
        local.migrated = false
        local.rules.upsert(id: "local-only", hostname: "news.example.org", selector: "#ad2", now: 400)
        let bytes = try Data(contentsOf: file.url)
        #expect(try RuleMigration.run(from: local, into: file) == .alreadyMigrated)
        #expect(try Data(contentsOf: file.url) == bytes)
        #expect(try file.read().collection["local-only"]?.deleted == true)
    }

    @Test func migrationIntoACorruptFileFailsAndLeavesEverythingAsItWas() throws {
        let url = try Support.temporaryDirectory().appendingPathComponent("rules.json")
        try Data("{\"format\":".utf8).write(to: url)
        let local = FakeBrowserLocalStore(Self.local)
        #expect(throws: RuleStoreError.self) { try RuleMigration.run(from: local, into: SharedRuleFile(url: url)) }
        #expect(!local.migrated)
        #expect(try Data(contentsOf: url) == Data("{\"format\":".utf8))
    }
}
