import BrowserRuntime
import CommandLineKit
import Foundation
import ScenarioKit
import WebRuntime

/// `adv-harness test`: runs extensions' own tests, written in their JavaScript with
/// `browser.test`, on the virtual clock.
enum TestCommand {
    static let spec = CommandSpec(tool: "adv-harness", command: "test", options: ["--profile", "--junit", "--jobs", "--budget", "--config"],
                                  repeatable: ["--page", "--grant", "--withhold"], help: help)

    static let help = """
    usage: adv-harness test EXTENSION_DIR... [--page URL=FILE]... [--grant HOST]... [--withhold PERMISSION]...
                            [--profile safari|chromium] [--config JSON] [--budget MS] [--junit FILE] [--jobs N]

    Loads each extension with its test API (safari: browser.test as WebKit has it; chromium:
    chrome.test with Chromium's framework, runTests, callbackPass, assertEq(expected, actual))
    and the permissions it asks for granted, opens each --page in a tab (FILE answers URL, so
    the extension's content scripts run there), and runs until every context that used the
    test API has called notifyPass or notifyFail, or the budget of virtual time is spent.
    Prints one line per extension, with each failed assertion's message, expected and actual
    values and place (worker.js:12:5), then `N passed, N failed`.
      --grant HOST        allow the extension on HOST only (default: every host it asks for)
      --withhold PERM     remove an API permission from the manifest's, as a browser can
      --config JSON       the object chrome.test.getConfig() gives (default {})
      --budget MS         virtual time each extension's tests may take (default 30000)
      --junit FILE        also write a JUnit XML report (checked before anything runs)
      --jobs N            run N extensions at once (default 1)
    An uncaught error in any context fails its extension. Exit status: 0 all passed, 1 one
    failed, 2 bad input (nothing run).
    """

    static func run(_ words: [String], output: CommandOutput) throws -> Int32 {
        let arguments = try Arguments(words, spec: spec)
        if arguments.wantsHelp { output.out(spec.help); return 0 }
        guard !arguments.positionals.isEmpty else { throw spec.error("give at least one extension folder") }
        var options = ExtensionTestRun.Options()
        if let text = arguments.value("--profile") {
            guard let profile = Browser.Profile(rawValue: text) else { throw spec.error("--profile must be safari or chromium, got '\(text)'") }
            options.profile = profile
        }
        if let text = arguments.value("--budget") {
            guard let ms = Int(text), (1...3_600_000).contains(ms) else { throw spec.error("--budget must be a whole number of milliseconds from 1 to 3600000, got '\(text)'") }
            options.budget = .milliseconds(Double(ms))
        }
        if let text = arguments.value("--config") {
            guard let data = text.data(using: .utf8), (try? JSONSerialization.jsonObject(with: data)) is [String: Any] else {
                throw spec.error("--config must be a JSON object, got '\(text)'")
            }
            options.config = text
        }
        var jobs = 1
        if let text = arguments.value("--jobs") {
            guard let value = Int(text), (1...64).contains(value) else { throw spec.error("--jobs must be a whole number from 1 to 64, got '\(text)'") }
            jobs = value
        }
        for page in arguments.values["--page"] ?? [] {
            guard let equals = page.firstIndex(of: "="), page[..<equals].hasPrefix("http") else {
                throw spec.error("--page takes URL=FILE (https://site.example/=page.html), got '\(page)'")
            }
            options.pages.append((String(page[..<equals]), URL(fileURLWithPath: String(page[page.index(after: equals)...]))))
        }
        options.grants = arguments.values["--grant"] ?? []
        options.withheld = Set(arguments.values["--withhold"] ?? [])
        if let path = arguments.value("--junit") { try OutputPath.checkFile(path, option: "--junit") }
        let folders = arguments.positionals.map { URL(fileURLWithPath: $0) }
        // Every extension and page is read before any test runs.
        for folder in folders { _ = try ExtensionTestRun.prepare(folder, options: options) }

        let outcomes = Outcomes(count: folders.count)
        let settled = options
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = jobs
        for (index, folder) in folders.enumerated() {
            queue.addOperation { outcomes.set(index, Result { try ExtensionTestRun.run(folder, options: settled) }) }
        }
        queue.waitUntilAllOperationsAreFinished()
        let results = outcomes.all.map { try? $0?.get() }
        let errors = outcomes.all.map { outcome -> String? in
            guard case let .failure(error)? = outcome else { return nil }
            return "\(error)"
        }

        var passed = 0, failed = 0
        var cases: [JUnitReport.Case] = []
        for (index, folder) in folders.enumerated() {
            guard let result = results[index] else {
                failed += 1
                output.out("FAIL  \(folder.path)\n      \(errors[index] ?? "did not run")")
                cases.append(JUnitReport.Case(suite: "extensions", name: folder.lastPathComponent, seconds: 0, failure: errors[index]))
                continue
            }
            let counted = result.tests > 0 ? "\(result.tests) test\(result.tests == 1 ? "" : "s")"
                : "\(result.assertions) assertion\(result.assertions == 1 ? "" : "s")"
            let figures = "\(counted), virtual \(String(format: "%.1f", result.virtualSeconds))s"
            if result.passed {
                passed += 1
                output.out("PASS  \(result.name) (\(figures))")
            } else {
                failed += 1
                output.out("FAIL  \(result.name) (\(figures))")
                for failure in result.failures { output.out("      " + failure.replacingOccurrences(of: "\n", with: "\n      ")) }
            }
            cases.append(JUnitReport.Case(suite: "extensions", name: result.name, seconds: result.wallSeconds,
                                          failure: result.passed ? nil : result.failures.joined(separator: "\n")))
        }
        var status = failed == 0 ? ExitStatus.success : ExitStatus.checkFailed
        if let path = arguments.value("--junit") {
            do {
                try Baseline.writeAtomically(JUnitReport.xml(cases), to: URL(fileURLWithPath: path))
            } catch {
                output.err("adv-harness: --junit '\(path)': \(error)")
                status = ExitStatus.badInput
            }
        }
        output.out("\(passed) passed, \(failed) failed")
        return status
    }
}

/// Each extension's outcome, filled in by the workers in any order and read in input order.
private final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<ExtensionTestRun.Result, Error>?]
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ outcome: Result<ExtensionTestRun.Result, Error>) {
        lock.lock()
        slots[index] = outcome
        lock.unlock()
    }
    var all: [Result<ExtensionTestRun.Result, Error>?] {
        lock.lock()
        defer { lock.unlock() }
        return slots
    }
}
