import CommandLineKit
import Foundation
import HarnessCLI
import TestSupport
import Testing

/// `adv-harness run` and `trace` as a user calls them: output lines, exit codes, JUnit.
@Suite(.serialized) struct RunCommandTests {
    @Test func runCommandReportsAndExits() throws {
        let root = Support.fixtures.deletingLastPathComponent()
        setenv("ADV_PROJECT_ROOT", root.path, 1)
        let (output, out, err) = CommandOutput.buffer()
        let junit = Support.scratchRoot.appendingPathComponent("adv-junit-\(UUID().uuidString).xml")
        // The suite's size, from its folder: every scenario in it runs once.
        let count = try FileManager.default.contentsOfDirectory(atPath: Support.fixtures.appendingPathComponent("scenarios/runtime").path)
            .filter { $0.hasSuffix(".json") }.count
        #expect(count >= 4)
        let code = HarnessCommand.run(["run", "runtime", "--jobs", "2", "--junit", junit.path], output: output)
        #expect(code == 0, "\(out())\(err())")
        #expect(out().hasSuffix("\(count) passed, 0 failed\n"))
        #expect(out().contains("PASS  runtime/notes-count-visits  virtual 1.0s"))
        #expect((try? String(contentsOf: junit, encoding: .utf8))?.contains(#"tests="\#(count)" failures="0""#) == true)
        let (bad, _, badErr) = CommandOutput.buffer()
        #expect(HarnessCommand.run(["run", "runtim"], output: bad) == 2)
        #expect(badErr() == "adv-harness: unknown suite 'runtim'; did you mean 'runtime'? (adv-harness list shows all)\n")
        let (shardOut, shardText, _) = CommandOutput.buffer()
        #expect(HarnessCommand.run(["run", "runtime", "--shard", "2/2"], output: shardOut) == 0)
        // Shard 2 of 2 takes every second file of the sorted list, starting with the second.
        #expect(shardText().hasSuffix("\(count / 2) passed, 0 failed\n"))
        let (traceOut, traceText, _) = CommandOutput.buffer()
        #expect(HarnessCommand.run(["trace", "runtime/notes-count-visits", "--channel", "toolbar"], output: traceOut) == 0)
        #expect(traceText().split(separator: "\n").count == 3)
        #expect(traceText().contains("tab1 toolbar icon=images/icon.svg badge=\"1\""))
    }
}

/// `adv-harness run` checks where it will write before it runs anything, and never replaces what
/// it did not make; a run that selects nothing fails unless asked not to.
@Suite(.serialized) struct RunCommandSafetyTests {
    func run(_ arguments: [String]) -> (Int32, String, String) {
        setenv("ADV_PROJECT_ROOT", Support.packageRoot.path, 1)
        let (output, out, err) = CommandOutput.buffer()
        let code = HarnessCommand.run(arguments, output: output)
        return (code, out(), err())
    }

    func folderWithAFile() throws -> URL {
        let folder = Support.scratchRoot.appendingPathComponent("adv-junit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        return folder
    }

    @Test func junitIntoAnExistingFolderIsRefusedBeforeAnythingRuns() throws {
        let folder = try folderWithAFile()
        let (code, out, err) = run(["run", "runtime", "--junit", folder.path])
        #expect(code == 2)
        #expect(out.isEmpty, "no scenario ran: \(out)")
        #expect(err == "adv-harness: --junit '\(folder.path)' is a folder; give the path of a file to write\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["notes.txt"])
    }

    @Test func junitUnderAFileIsRefused() throws {
        let file = try folderWithAFile().appendingPathComponent("notes.txt")
        let (code, _, err) = run(["run", "runtime", "--junit", file.path + "/report.xml"])
        #expect(code == 2)
        #expect(err.contains("which is a file, not a folder"), "\(err)")
        #expect((try? String(contentsOf: file, encoding: .utf8)) == "keep")
    }

    @Test func aRunThatSelectsNothingFails() {
        let (code, out, _) = run(["run", "runtime", "--filter", "no-such-scenario-anywhere"])
        #expect(code == 1)
        #expect(out == "no scenarios matched\n")
        let (passing, passingOut, _) = run(["run", "runtime", "--filter", "no-such-scenario-anywhere", "--pass-with-no-scenarios"])
        #expect(passing == 0)
        #expect(passingOut == "no scenarios matched\n")
    }

    @Test func noBaselinesChecksOnlyExpectations() throws {
        // A scenario outside the fixtures with no baseline: it fails for the missing golden trace,
        // and passes on its expectations alone with --no-baselines.
        let folder = Support.scratchRoot.appendingPathComponent("adv-explore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("explore.json")
        try Data(#"{"extension": null, "pages": {"https://a.example/": "sites/plain.html"}, "steps": [{"open": "https://a.example/"}, {"expect": {"js": "1 + 1", "equals": 2}}]}"#.utf8).write(to: file)
        let (withBaseline, out, _) = run(["run", file.path])
        #expect(withBaseline == 1, "\(out)")
        #expect(out.contains("no baseline yet"))
        let (without, quiet, _) = run(["run", file.path, "--no-baselines"])
        #expect(without == 0, "\(quiet)")
        #expect(quiet.hasSuffix("1 passed, 0 failed\n"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("explore.trace").path))
        // Recording a new baseline and rewriting a changed one report alike: written, not yet passing.
        let (recorded, recordedOut, _) = run(["run", file.path, "--update-baselines"])
        #expect(recorded == 1)
        #expect(recordedOut.contains("(baseline written)") && recordedOut.contains("recorded a new baseline; not yet passing"), "\(recordedOut)")
        let baseline = folder.appendingPathComponent("explore.trace")
        try Data("an older trace\n".utf8).write(to: baseline)
        let (rewritten, rewrittenOut, _) = run(["run", file.path, "--update-baselines"])
        #expect(rewritten == 1)
        #expect(rewrittenOut.contains("(baseline written)") && rewrittenOut.contains("rewrote the baseline, which differed; not yet passing"), "\(rewrittenOut)")
        let (unchanged, unchangedOut, _) = run(["run", file.path, "--update-baselines"])
        #expect(unchanged == 0, "an unchanged baseline passes: \(unchangedOut)")
        #expect(!unchangedOut.contains("(baseline written)"))
        let (both, _, bothErr) = run(["run", file.path, "--no-baselines", "--update-baselines"])
        #expect(both == 2)
        #expect(bothErr.contains("contradict each other"))
    }

    @Test func repeatEachRunsEveryScenarioThatManyTimesAndIsChecked() {
        let (code, out, _) = run(["run", "runtime", "--filter", "notes-permission-denied", "--repeat-each", "3", "--jobs", "2"])
        #expect(code == 0, "\(out)")
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(out)")
        for (index, line) in lines.prefix(3).enumerated() {
            #expect(line.hasPrefix("PASS  runtime/notes-permission-denied #\(index + 1)  virtual "), "\(line)")
        }
        #expect(lines.last == "3 passed, 0 failed")
        for bad in ["0", "10001", "2.5", "many"] {
            let (status, badOut, err) = run(["run", "runtime", "--repeat-each", bad])
            #expect(status == 2 && badOut.isEmpty, "\(bad): \(badOut)")
            #expect(err == "adv-harness: --repeat-each must be a whole number from 1 to 10000, got '\(bad)'\n")
        }
        let (both, bothOut, bothErr) = run(["run", "runtime", "--repeat-each", "2", "--update-baselines"])
        #expect(both == 2 && bothOut.isEmpty)
        #expect(bothErr.contains("--repeat-each and --update-baselines cannot be combined"), "\(bothErr)")
    }
}
