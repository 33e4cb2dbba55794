import CommandLineKit
import Foundation
import HarnessCLI
import Testing
import TestSupport

/// Pages that try to hang the harness, and an extension that fails to start (fixtures/hostile):
/// each is stopped or failed with its reason and the place its script was, its remaining steps
/// are reported as not run, and the scenarios beside it go on.
@Suite struct HostilePageTests {
    static let folder = Support.packageRoot.appendingPathComponent("fixtures/hostile")

    func run(_ names: [String], _ extra: [String] = []) -> (Int32, String) {
        setenv("ADV_PROJECT_ROOT", Support.packageRoot.path, 1)
        let (output, out, _) = CommandOutput.buffer()
        let files = names.map { Self.folder.appendingPathComponent($0 + ".json").path }
        let code = HarnessCommand.run(["run"] + files + ["--no-baselines"] + extra, output: output)
        return (code, out())
    }

    /// The failure lines printed for scenario `name`.
    func report(of name: String, in output: String) -> String {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.contains("hostile/\(name) ") }) else { return "" }
        return lines[start...].dropFirst().prefix { $0.hasPrefix("      ") }.joined(separator: "\n")
    }

    @Test func runawayScriptsAreStoppedWithTheirPlaceAndTheRunGoesOn() {
        let hostile = ["click-loop", "inline-handler", "parse-loop", "observer-loop", "microtask-loop", "timer-storm"]
        let (code, output) = run(hostile + ["calm"], ["--jobs", "2"])
        #expect(code == 1)
        #expect(output.contains("PASS  hostile/calm"), "\(output)")
        #expect(output.hasSuffix("1 passed, 6 failed\n"), "\(output)")
        let budget = "JavaScript stopped: it exceeded the scenario's wall-time budget of 1 s"
        let expected: [String: (String, String)] = [
            "click-loop": ("steps[1]: \(budget) during the click (at https://hostile.example/:", "not run: steps[2]"),
            "inline-handler": ("steps[1]: \(budget) during the click (at code without a URL (an inline event handler, eval or Function))", "not run: steps[2]"),
            "parse-loop": ("steps[0]: \(budget) during the open (at https://hostile.example/:", "not run: steps[1]"),
            "observer-loop": ("steps[0]: \(budget) during the open (at a MutationObserver delivery)", "not run: steps[1]"),
            "microtask-loop": ("steps[0]: \(budget) during the open (at a queueMicrotask callback)", "not run: steps[1]"),
            "timer-storm": ("steps[1]: \(budget) during interval timer", "not run:"),
        ]
        for (name, (stop, notRun)) in expected {
            let lines = report(of: name, in: output)
            #expect(lines.contains(stop), "\(name): \(lines)")
            #expect(lines.contains(notRun) == (notRun != "not run:"), "\(name): \(lines)")
        }
    }

    @Test func aBackgroundThatThrowsWhileStartingFailsUnlessTheErrorIsExpected() {
        let (code, output) = run(["background-throws", "background-throws-expected"])
        #expect(code == 1)
        #expect(report(of: "background-throws", in: output).hasPrefix(
            "      the background threw while starting: TypeError: undefined is not an object (evaluating 'settings.enabled') (at safari-web-extension://"), "\(output)")
        #expect(report(of: "background-throws", in: output).hasSuffix("/background.js:4:9) during background script background.js"), "\(output)")
        #expect(output.contains("PASS  hostile/background-throws-expected"), "\(output)")
    }

    @Test func aPromiseLoopThatNeverCallsTheHostIsFailedByTheSupervisor() throws {
        // A promise job that queues itself cannot be stopped from inside the engine; the run's
        // supervisor fails it and abandons its thread. In a child process, so that the thread
        // left running does not outlive this test in the test process.
        let executable = try #require(HelperExecutable.locate("adv-harness"), "the adv-harness executable is built with the tests")
        let files = ["promise-loop", "calm"].map { Self.folder.appendingPathComponent($0 + ".json").path }
        let result = try HelperExecutable.run(executable, ["run"] + files + ["--no-baselines", "--jobs", "2"])
        #expect(result.status == 1, "\(result.out)\(result.err)")
        #expect(result.out.contains("PASS  hostile/calm"), "\(result.out)")
        let lines = report(of: "promise-loop", in: result.out)
        #expect(lines.contains("steps[0]: JavaScript did not return within the scenario's wall-time budget of 1 s (plus 2 s) during steps[0] (the open)"), "\(lines)")
        #expect(lines.contains("not run: steps[1]"), "\(lines)")
    }
}
