import Foundation
import RuleStore

// Helper processes for the shared-file tests.
//   adv-rulefile-worker stress FILE WORKER OPERATIONS SEED
//     runs one worker's seeded add/remove workload against FILE.
//   adv-rulefile-worker migrate FILE LOCAL STEP|none
//     migrates the browser-local document LOCAL (flag file: LOCAL.migrated) into
//     FILE, dying with _exit(70) right after STEP, as a crash would: no cleanup,
//     no unlock, temp files left where they are.

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("adv-rulefile-worker: \(message)\n".utf8))
    exit(status)
}

/// Browser-local storage simulated by a document file and a flag file beside it.
final class LocalFileStore: BrowserLocalRuleSource {
    let url: URL
    var flag: URL { url.appendingPathExtension("migrated") }
    init(url: URL) { self.url = url }
    func isMigrated() throws -> Bool { FileManager.default.fileExists(atPath: flag.path) }
    func loadRules() throws -> RuleCollection { try RuleCodec.decode(Data(contentsOf: url), file: url.path).collection }
    func markMigrated() throws { try Data().write(to: flag) }
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "stress":
    guard arguments.count == 5, let worker = Int(arguments[2]), let operations = Int(arguments[3]),
          let seed = UInt64(arguments[4])
    else { fail("usage: adv-rulefile-worker stress FILE WORKER OPERATIONS SEED", status: 2) }
    let file = SharedRuleFile(url: URL(fileURLWithPath: arguments[1]))
    do {
        for (step, operation) in SharedFileStress.plan(worker: worker, operations: operations, seed: seed).enumerated() {
            try SharedFileStress.apply(operation, to: file, now: Int64(step + 1))
        }
    } catch {
        fail("error: \(error)", status: 1)
    }
case "migrate":
    guard arguments.count == 4 else { fail("usage: adv-rulefile-worker migrate FILE LOCAL STEP|none", status: 2) }
    let crashAt = arguments[3]
    guard crashAt == "none" || MigrationStep.all.contains(where: { $0.description == crashAt }) else {
        fail("unknown step '\(crashAt)'", status: 2)
    }
    do {
        let outcome = try RuleMigration.run(
            from: LocalFileStore(url: URL(fileURLWithPath: arguments[2])),
            into: SharedRuleFile(url: URL(fileURLWithPath: arguments[1])),
            hook: { step in if step.description == crashAt { _exit(70) } })
        print(outcome == .alreadyMigrated ? "already-migrated" : "migrated")
    } catch {
        fail("error: \(error)", status: 1)
    }
default:
    fail("usage: adv-rulefile-worker stress|migrate ...", status: 2)
}
