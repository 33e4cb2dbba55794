import ADVHarnessSupport
import BrowserRuntime
import CommandLineKit
import Foundation
import JSKit
import RuntimeBench
import ScenarioKit
import WebRuntime

/// `adv-harness run`: runs scenarios, compares their traces with the baselines, prints one line
/// per scenario and the closing `N passed, N failed`.
enum RunCommand {
    static let spec = CommandSpec(tool: "adv-harness", command: "run", options: ["--filter", "--junit", "--profile", "--jobs", "--shard", "--repeat-each", "--shuffle"], flags: ["--update-baselines", "--no-baselines", "--pass-with-no-scenarios", "--log-memory", "--isolate"], help: help)

    static let help = """
    usage: adv-harness run [SUITE|FILE|DIR]... [options]

    Runs scenarios (all suites when none is named), each in a fresh browser on the virtual clock,
    checks their expectations and compares their traces with fixtures/baselines/<suite>/<name>.trace.
      --filter PATTERN      only scenarios whose suite/name contains PATTERN
      --update-baselines    rewrite the golden traces instead of comparing (review the diff!)
      --no-baselines        check only the scenarios' own expectations, no golden traces (for
                            exploratory scenarios and other browsers' profiles)
      --pass-with-no-scenarios  exit 0 when nothing matches (default: exit 1, 'no scenarios matched')
      --junit FILE          also write a JUnit XML report to FILE (checked before anything runs;
                            an existing folder is refused, never replaced)
      --profile NAME        force the safari or chromium browser profile (a scenario whose own
                            profile differs is not compared with its baseline)
      --jobs N              run N scenarios at once (default 1); traces do not change
      --shard K/N           run only shard K of N (for a CI matrix)
      --repeat-each N       run every selected scenario N times in a row (1-10000), each compared
                            with its baseline: flaky and order-dependent behaviour shows as a FAIL
      --log-memory          print the process's resident memory after each scenario (to look
                            for leaks across a long run)
      --shuffle SEED        run the scenarios in a random order given by SEED (a whole number,
                            printed first): a scenario that depends on another's leftovers fails
      --isolate             give every scenario an engine of its own instead of a warm one
                            (slower; for telling an isolation problem from a real failure)
    Exit status: 0 all passed, 1 some failed, 2 bad input. Mismatches write -actual and -diff
    files under .build/adv-results/.
    """

    static func run(_ words: [String], output: CommandOutput) throws -> Int32 {
        let arguments = try Arguments(words, spec: spec)
        if arguments.wantsHelp { output.out(spec.help); return 0 }
        // Every output path is checked before any scenario runs.
        if let path = arguments.value("--junit") { try OutputPath.checkFile(path, option: "--junit") }
        if arguments.has("--update-baselines") && arguments.has("--no-baselines") {
            throw spec.error("--update-baselines and --no-baselines contradict each other")
        }
        let catalog = try locateCatalog()
        var jobs = 1
        if let text = arguments.value("--jobs") {
            guard let value = Int(text), value >= 1 else { throw UsageError("--jobs must be a positive whole number, got '\(text)'") }
            jobs = value
        }
        var profile: Browser.Profile?
        if let text = arguments.value("--profile") {
            guard let value = Browser.Profile(rawValue: text) else { throw UsageError("--profile must be safari or chromium, got '\(text)'") }
            profile = value
        }
        var files = try catalog.resolve(arguments.positionals)
        if let pattern = arguments.value("--filter") {
            files = files.filter { "\($0.deletingLastPathComponent().lastPathComponent)/\($0.deletingPathExtension().lastPathComponent)".contains(pattern) }
        }
        if let text = arguments.value("--shard") {
            let parts = text.split(separator: "/").compactMap { Int($0) }
            guard parts.count == 2, parts[1] >= 1, (1...parts[1]).contains(parts[0]) else {
                throw UsageError("--shard must be K/N with 1 <= K <= N, got '\(text)'")
            }
            files = SuiteRun.shard(files, index: parts[0], count: parts[1])
        }
        var repeats = 1
        if let text = arguments.value("--repeat-each") {
            guard let value = Int(text), (1...10_000).contains(value) else {
                throw UsageError("--repeat-each must be a whole number from 1 to 10000, got '\(text)'")
            }
            // Repeats of one scenario may run at once; two writers of one golden trace would race.
            if value > 1 && arguments.has("--update-baselines") {
                throw spec.error("--repeat-each and --update-baselines cannot be combined (record once, then repeat)")
            }
            repeats = value
        }
        let logMemory = arguments.has("--log-memory")
        var shuffleSeed: UInt64?
        if let text = arguments.value("--shuffle") {
            guard let value = UInt64(text) else { throw UsageError("--shuffle must be a whole number from 0 to \(UInt64.max), got '\(text)'") }
            shuffleSeed = value
        }
        let pool = EnginePool.shared
        if arguments.has("--isolate") { pool.reuses = false }
        // The workers' engines load while the scenario files are read and checked.
        pool.warm(jobs)
        // Validate every scenario before running any.
        var scenarios = try files.map { try catalog.scenario(at: $0) }.flatMap { Array(repeating: $0, count: repeats) }
        if let shuffleSeed {
            scenarios = SuiteRun.shuffle(scenarios, seed: shuffleSeed)
        }
        // A run that selects nothing is almost always a mistake (a typo in --filter, an empty
        // folder); like Jest and Playwright, say so and fail unless asked not to.
        if scenarios.isEmpty {
            output.out("no scenarios matched")
            return arguments.has("--pass-with-no-scenarios") ? ExitStatus.success : ExitStatus.checkFailed
        }
        if let shuffleSeed { output.out("shuffled with seed \(shuffleSeed)") }
        var passed = 0
        var failed = 0
        var cases: [JUnitReport.Case] = []
        if output.isTerminal {
            output.out("running \(scenarios.count) scenario\(scenarios.count == 1 ? "" : "s") with \(jobs) job\(jobs == 1 ? "" : "s")")
        }
        SuiteRun.run(scenarios, catalog: catalog, jobs: jobs, updateBaselines: arguments.has("--update-baselines"), profile: profile,
                     compareBaselines: !arguments.has("--no-baselines")) { index, outcome in
            let result = outcome.result
            let status = outcome.passed ? "PASS" : "FAIL"
            let progress = output.isTerminal ? "[\(index + 1)/\(scenarios.count)] " : ""
            let repetition = repeats > 1 && shuffleSeed == nil ? " #\(index % repeats + 1)" : ""
            var line = "\(progress)\(status)  \(result.scenario.id)\(repetition)  virtual \(formatVirtual(result.virtualDuration))  wall \(Int((result.wallSeconds * 1000).rounded()))ms"
            if case .recorded(changed: true)? = outcome.baseline { line += "  (baseline written)" }
            if logMemory { line += "  rss \(ProcessMemory.residentBytes(trimmingMalloc: true) / 1_048_576) MB" }
            output.out(line)
            for failure in outcome.failures {
                output.out(failure.split(separator: "\n", omittingEmptySubsequences: false).map { "      " + $0 }.joined(separator: "\n"))
            }
            if outcome.passed { passed += 1 } else { failed += 1 }
            cases.append(JUnitReport.Case(suite: result.scenario.suite, name: result.scenario.name, seconds: result.wallSeconds,
                                          failure: outcome.passed ? nil : outcome.failures.joined(separator: "\n")))
        }
        var status = failed == 0 ? ExitStatus.success : ExitStatus.checkFailed
        if let path = arguments.value("--junit") {
            let url = URL(fileURLWithPath: path)
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Baseline.writeAtomically(JUnitReport.xml(cases), to: url)
            } catch {
                // Checked before the run: only a file system that changed under it gets here.
                output.err("adv-harness: --junit '\(path)': \(error)")
                status = ExitStatus.badInput
            }
        }
        output.out("\(passed) passed, \(failed) failed")
        return status
    }

    static func locateCatalog() throws -> ScenarioCatalog {
        guard let catalog = ADVHarnessSupport.catalog() else {
            throw UsageError("cannot find fixtures/scenarios from '\(FileManager.default.currentDirectoryPath)'; run from the repository or set ADV_PROJECT_ROOT")
        }
        return catalog
    }

    static func formatVirtual(_ time: VirtualTime) -> String {
        String(format: "%.1fs", time.milliseconds / 1000)
    }
}
