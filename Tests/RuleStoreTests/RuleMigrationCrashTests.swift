import Foundation
import TestSupport
import Testing
@testable import RuleStore

/// The same interruption test with real process death: the helper calls `_exit` at
/// the step, leaving its lock to the kernel and its temp file on disk.
@Suite struct RuleMigrationCrashTests {
    @Test(arguments: MigrationStep.all)
    func processKilledAtAnyStepStillMigratesExactlyOnce(step: MigrationStep) throws {
        let worker = try #require(HelperExecutable.locate("adv-rulefile-worker"))
        let directory = try Support.temporaryDirectory()
        let shared = directory.appendingPathComponent("rules.json")
        let local = directory.appendingPathComponent("browser-local.json")
        try SharedRuleFile(url: shared).update { $0.collection = RuleMigrationTests.sharedBefore }
        try RuleCodec.encode(RuleDocument(collection: RuleMigrationTests.local)).write(to: local)

        func migrate(_ crashAt: String) throws -> (status: Int32, out: String, err: String) {
            try HelperExecutable.run(worker, ["migrate", shared.path, local.path, crashAt])
        }
        let crashed = try migrate(step.description)
        #expect(crashed.status == 70, "\(crashed.err)")
        let committedBeforeCrash = MigrationStep.all.firstIndex(of: step)!
            >= MigrationStep.all.firstIndex(of: .sharedFile(.renamed))!
        let rerun = try migrate("none")
        #expect(rerun.status == 0, "\(rerun.err)")
        #expect(rerun.out == (committedBeforeCrash ? "already-migrated\n" : "migrated\n"))
        let document = try SharedRuleFile(url: shared).read()
        #expect(document.collection == RuleMigrationTests.sharedBefore.merged(with: RuleMigrationTests.local))
        #expect(document.migrations == [RuleMigration.browserLocalSource])
        #expect(FileManager.default.fileExists(atPath: local.appendingPathExtension("migrated").path))
        let bytes = try Data(contentsOf: shared)
        #expect(try migrate("none").out == "already-migrated\n")
        #expect(try Data(contentsOf: shared) == bytes)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty, "temp files: \(leftovers)")
    }
}
