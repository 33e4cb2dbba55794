import BlockerCore
import BrowserRuntime
import Dispatch
import Foundation
import JSKit
import WebRuntime

/// Runs a scenario in a fresh browser (a fresh context group) and collects its trace.
///
/// Steps run in order at their virtual times; the scenario ends after its last step. A step
/// that throws ends the scenario as failed; an unmet expectation is recorded and the steps go on,
/// so one run reports every failed expectation.
public final class ScenarioRunner {
    let scenario: Scenario
    let browser: Browser
    var host: ExtensionHost?
    var tabs: [String: Tab] = [:]
    var failures: [String] = []
    /// Every message the extension sent to each native application, whole, in order (what
    /// `nativeMessages` expectations check). The scenario's own `nativeMessage` steps (the app
    /// acting by itself) are not in it.
    var nativeTranscript: [String: [String]] = [:]
    /// Answers a native message as the scenario's hosts or scripted answers do, unrecorded.
    var answerNative: ((String, String) -> Result<String, NativeMessageError>)?
    private var progress: ScenarioProgress?
    private var pageCache: [URL: String] = [:]
    /// Files of real native hosts for this run (removed afterwards).
    lazy var workFolder: URL = FileManager.default.temporaryDirectory.appendingPathComponent("adv-scenario-\(UUID().uuidString)")

    private init(_ scenario: Scenario, profile: Browser.Profile?, engine: SessionEngine?) throws {
        self.scenario = scenario
        var options = Browser.Options()
        options.profile = profile ?? scenario.profile
        options.testAPI = scenario.testAPI
        browser = try Browser(options: options, engine: engine)
    }

    /// Runs `scenario`, optionally forcing a browser profile; `progress` follows the steps and
    /// tasks as they run, for a supervising thread. The browser's engine comes from `pool` (a
    /// warm one when it has one) and goes back to it if the scenario passed and left nothing
    /// that cannot be restored (see ``EnginePool``).
    public static func run(_ scenario: Scenario, profile: Browser.Profile? = nil, progress: ScenarioProgress? = nil,
                           pool: EnginePool = .shared) -> ScenarioResult {
        run(scenario, profile: profile, progress: progress, pool: pool, watching: { _ in })
    }

    /// Runs `scenario` and hands its browser to `watch` before the first step (tests keep weak
    /// references to what it made, to see it freed).
    package static func run(_ scenario: Scenario, profile: Browser.Profile? = nil, progress: ScenarioProgress? = nil,
                            pool: EnginePool = .shared, watching watch: (Browser) -> Void) -> ScenarioResult {
        let started = DispatchTime.now().uptimeNanoseconds
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9 }
        weak var session: WebSession?
        var reusable: SessionEngine?
        var result = runReleasingRunner(scenario, profile: profile, progress: progress, pool: pool, reusable: &reusable, elapsed: elapsed) { browser in
            session = browser.session
            watch(browser)
        }
        // The runner and its browser are gone by now, and the session with them unless something
        // still holds it (see JSContext.function on closures); only then may another scenario
        // have the engine.
        result.sessionReleased = session == nil
        if let reusable { pool.park(reusable) }
        return result
    }

    /// Runs `scenario` in a runner that is released when this returns; `reusable` is its engine
    /// when the pool may have it again.
    private static func runReleasingRunner(
        _ scenario: Scenario, profile: Browser.Profile?, progress: ScenarioProgress?, pool: EnginePool, reusable: inout SessionEngine?,
        elapsed: () -> Double, made: (Browser) -> Void
    ) -> ScenarioResult {
        let runner: ScenarioRunner
        do {
            runner = try ScenarioRunner(scenario, profile: profile, engine: try pool.take())
        } catch {
            return ScenarioResult(scenario: scenario, failures: ["cannot start the browser: \(error)"], trace: "", virtualDuration: .zero, wallSeconds: elapsed())
        }
        if let progress {
            runner.progress = progress
            runner.browser.loop.beforeEachTask = { [progress] label in progress.task(label) }
        }
        made(runner.browser)
        runner.execute(wallBudget: scenario.wallBudget, elapsed: elapsed)
        try? FileManager.default.removeItem(at: runner.workFolder)
        let result = ScenarioResult(
            scenario: scenario, failures: runner.failures, trace: runner.browser.trace.dump(),
            virtualDuration: runner.browser.loop.now, wallSeconds: elapsed())
        reusable = pool.retire(runner.browser.session, passed: runner.failures.isEmpty)
        return result
    }

    private func execute(wallBudget: Double, elapsed: () -> Double) {
        let watchdog = browser.session.watchdog
        // The budget holds inside a running call or parse too: the watchdog checks it while
        // JavaScript runs, the loop between tasks.
        watchdog.setDeadline(after: wallBudget - elapsed(), reason: "exceeded the scenario's wall-time budget of \(ScriptWatchdog.seconds(wallBudget))")
        var index = 0
        do {
            try setUp()
            try checkStopped(during: "the extension's start")
            while index < scenario.steps.count {
                let step = scenario.steps[index]
                guard step.at <= scenario.virtualBudget else {
                    failures.append("\(step.path): at \(step.at), past the virtual budget of \(scenario.virtualBudget)")
                    return
                }
                progress?.step(index, "\(step.path) (\(Self.describe(step)))")
                try browser.loop.run(until: step.at)
                try perform(step)
                try checkStopped(during: Self.describe(step))
                index += 1
            }
            failures += unexpectedStartErrors()
            // An extension under test whose own assertion failed fails its scenario.
            failures += browser.testRecords.filter(\.isFailure).map { "browser.test in \($0.context): \($0.summary)" }
        } catch {
            if let stop = stopMessage(for: error, step: index < scenario.steps.count ? scenario.steps[index] : nil) {
                failures.append((index < scenario.steps.count ? scenario.steps[index].path + ": " : "") + stop)
                let session = browser.session
                if !session.stopReported {
                    session.stopReported = true
                    browser.trace.record(.error, at: "scenario", stop + session.stackSuffix(session.watchdog.termination?.stack))
                }
                let rest = scenario.steps.dropFirst(index + 1).map(\.path)
                if !rest.isEmpty {
                    failures.append("not run: " + rest.joined(separator: ", "))
                    browser.trace.record(.harness, at: "scenario", "not run: " + rest.joined(separator: ", "))
                }
            } else if let error = error as? StepFailure {
                failures.append(error.message)
            } else {
                failures.append("\(error)")
            }
        }
    }

    /// Errors a background script threw while it started (its first run or a restart) that no
    /// expectation of the scenario names: an extension that fails to start is a failed scenario
    /// (Safari shows the error in the extension's Web Inspector, and its listeners are missing),
    /// unless an `{"expect": {"error": …}}` step (or a `trace` on the error channel) says it is meant.
    private func unexpectedStartErrors() -> [String] {
        let expected = scenario.steps.compactMap { step -> String? in
            guard case let .expect(.trace(text, "error", _, _, true)) = step.action else { return nil }
            return text
        }
        return browser.trace.dump(channels: [.error]).split(separator: "\n").compactMap { line -> String? in
            let text = String(line)
            guard text.contains(" background"), text.contains(" during background script "),
                  !expected.contains(where: { text.contains($0) }) else { return nil }
            let event = text.drop { $0 == " " }.split(separator: " ", maxSplits: 3).last.map(String.init) ?? text
            return "the background threw while starting: \(event.split(separator: "|").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? event)"
        }
    }

    /// Throws when the session's JavaScript was stopped, or the wall budget ran out, by now.
    private func checkStopped(during: String) throws {
        guard let stopped = browser.session.watchdog.checkDeadline() else { return }
        throw LoopError.stopped(reason: stopped.reason, location: stopped.location, during: during)
    }

    /// The failure text of a stop: the loop's, or one read off the watchdog when a step's call
    /// into JavaScript failed because of it.
    private func stopMessage(for error: Error, step: Scenario.Step?) -> String? {
        if let error = error as? LoopError, case .stopped = error { return error.description }
        guard let stopped = browser.session.watchdog.termination else { return nil }
        let during = step.map(Self.describe) ?? "the extension's start"
        return LoopError.stopped(reason: stopped.reason, location: stopped.location, during: during).description
    }

    /// `the click`: the kind of a step, for messages.
    static func describe(_ step: Scenario.Step) -> String {
        "the " + String(String(describing: step.action).prefix { $0 != "(" })
    }

    private func setUp() throws {
        let scenario = self.scenario
        browser.pageSource = { [unowned self] url in self.body(for: url) }
        let headers = scenario.responseHeaders
        browser.responseHeaderSource = { url in headers[url] ?? headers[url.split(separator: "#").first.map(String.init) ?? url] ?? [] }
        for (host, permission) in scenario.sitePermissions { browser.setSitePermission(permission, for: host) }
        browser.feedbackQuota = scenario.feedbackQuota
        browser.unloadsIdleBackgrounds = scenario.unloadsIdleBackground
        let accepts = scenario.acceptsPermissionPrompts
        browser.permissionPrompt = { _, _, _ in accepts }
        guard let folder = scenario.extensionFolder else { return }
        let bundle: ExtensionBundle
        do { bundle = try ExtensionBundle(folder: folder, profile: browser.options.profile).withholding(scenario.withheldPermissions) } catch {
            throw StepFailure("extension: \(error)")
        }
        host = try browser.install(bundle) { host in
            if let local = scenario.localStorage { host.setLocalStorage(json: local) }
            if let rules = scenario.dynamicRules { try host.setDynamicRules(json: rules) }
            host.faults = FaultPlan(rules: scenario.faults)
            var realHosts: [String: (String) -> Result<String, NativeMessageError>] = [:]
            for (application, spec) in scenario.nativeHosts {
                guard let factory = NativeHosts.factory(spec.kind) else { throw StepFailure("nativeHosts.\(application): unknown kind '\(spec.kind)'") }
                let folder = self.workFolder.appendingPathComponent(application)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let epoch = self.browser.options.session.epoch
                let loop = self.browser.loop
                nonisolated(unsafe) let clockLoop = loop
                realHosts[application] = try factory(spec.options, folder) { Int64(epoch + clockLoop.now.milliseconds) }
            }
            if !scenario.nativeMessages.isEmpty || !realHosts.isEmpty {
                var served: [String: Int] = [:]
                let answer: (String, String) -> Result<String, NativeMessageError> = { application, message in
                    if let real = realHosts[application] { return real(message) }
                    guard let responses = scenario.nativeMessages[application] else {
                        return .failure(NativeMessageError("Specified native messaging host not found."))
                    }
                    let index = served[application, default: 0]
                    served[application] = index + 1
                    return .success(responses[min(index, responses.count - 1)])
                }
                self.answerNative = answer
                host.nativeMessageHandler = { [weak self] application, message in
                    self?.nativeTranscript[application, default: []].append(message)
                    return answer(application, message)
                }
            }
        }
    }

    /// The text served for `url`: its mapped fixture file.
    func body(for url: String) -> String? {
        guard let file = scenario.pages[url] ?? scenario.pages[url.split(separator: "#").first.map(String.init) ?? url] else { return nil }
        if let cached = pageCache[file] { return cached }
        let text = try? String(contentsOf: file, encoding: .utf8)
        pageCache[file] = text
        return text
    }
}

/// A step that could not be carried out; ends the scenario.
struct StepFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
