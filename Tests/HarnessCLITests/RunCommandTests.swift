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
        let junit = FileManager.default.temporaryDirectory.appendingPathComponent("adv-junit-\(UUID().uuidString).xml")
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
