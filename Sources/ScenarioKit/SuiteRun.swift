import BlockerCore
import BrowserRuntime
import Dispatch
import Foundation
import JSKit
import WebRuntime

/// Runs many scenarios, optionally in parallel, and reports each in input order.
///
/// Each scenario gets its own browser, in a warm engine of its own while it runs (see
/// ``EnginePool``), so running N at once, or in any order, changes no trace.
public enum SuiteRun {
    /// A scenario's run together with its baseline comparison.
    public struct Outcome: Sendable {
        public let result: ScenarioResult
        public let baseline: Baseline.Outcome?
        /// Failures of the run and of the baseline comparison.
        public var failures: [String] {
            var all = result.failures
            switch baseline {
            case let .mismatch(diff)?: all.append("trace differs from the baseline:\n" + diff)
            case .missing?: all.append("no baseline yet (record it with --update-baselines)")
            // A new golden trace and a rewritten one are both unreviewed: both report alike, as
            // written and not yet passing (the house rule: recording is explicit, review follows).
            case .recorded(changed: true)? where baselineWasMissing: all.append("recorded a new baseline; not yet passing until it is reviewed and run again")
            case .recorded(changed: true)?: all.append("rewrote the baseline, which differed; not yet passing until the diff is reviewed and run again")
            default: break
            }
            return all
        }
        let baselineWasMissing: Bool
        public var passed: Bool { failures.isEmpty }
    }

    /// The scenarios of shard `index` (1-based) of `count`: every `count`-th file of the sorted
    /// list, starting at `index - 1`, so each file lands on exactly one shard.
    public static func shard(_ files: [URL], index: Int, count: Int) -> [URL] {
        files.sorted { $0.path < $1.path }.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
    }

    /// `scenarios` in the order `--shuffle seed` runs them: the same on every machine.
    public static func shuffle(_ scenarios: [Scenario], seed: UInt64) -> [Scenario] {
        var generator = SplitMix64(seed: seed)
        return generator.shuffled(scenarios)
    }

    /// Runs `scenarios` on `jobs` threads and calls `report` for each outcome in input order.
    ///
    /// The calling thread supervises the workers. The watchdog of each scenario's session stops
    /// its JavaScript at the wall budget, but a script that never returns control and never runs
    /// the host's code (a promise job that queues itself: every job is its own short VM entry,
    /// which the engine's time limit does not see) cannot be stopped from inside. A scenario
    /// still running ``overdueGrace`` seconds past its budget is failed from here, with the step
    /// and task it was in; its thread is abandoned at the lowest priority and a new worker takes
    /// its place, so the run goes on. ``abandonedWorkers`` counts such threads (the command line
    /// ends the process without running exit handlers while one runs).
    public static func run(
        _ scenarios: [Scenario], catalog: ScenarioCatalog, jobs: Int, updateBaselines: Bool,
        profile: Browser.Profile? = nil, compareBaselines: Bool = true, pool: EnginePool = .shared, report: (Int, Outcome) -> Void
    ) {
        let queue = WorkQueue<Outcome>(count: scenarios.count)
        let progress = scenarios.map { _ in ScenarioProgress() }
        func startWorker() {
            queue.workerStarted()
            let thread = Thread {
                while let index = queue.take() {
                    progress[index].started(thread: pthread_self())
                    let outcome = runOne(scenarios[index], catalog: catalog, update: updateBaselines, profile: profile,
                                         compareBaselines: compareBaselines, progress: progress[index], pool: pool)
                    // False when the supervisor gave up on this scenario: this thread was replaced.
                    guard queue.finish(index, outcome) else { return }
                }
                queue.workerEnded()
            }
            // JavaScriptCore's parser and interpreter recurse deeply: give workers the stack a
            // main thread has (8 MB), not a secondary thread's default.
            thread.stackSize = 8 << 20
            thread.start()
        }
        for _ in 0..<max(1, min(jobs, scenarios.count)) { startWorker() }
        for index in 0..<scenarios.count {
            let allowance = scenarios[index].wallBudget + overdueGrace
            let outcome = queue.wait(for: index, allowance: allowance) {
                let overdue = overdueOutcome(scenarios[index], progress: progress[index], allowance: allowance)
                guard queue.finish(index, overdue, abandoningWorker: true) else { return }
                abandon(thread: progress[index].threadID)
                startWorker()
            }
            report(index, outcome)
        }
        queue.waitForWorkers()
    }

    /// Seconds past its wall budget a scenario may take before its supervisor fails it.
    public static let overdueGrace = 2.0

    /// Worker threads given up on since the process started (still running JavaScript).
    public static var abandonedWorkers: Int { abandonedLock.withLock { abandoned } }
    private static let abandonedLock = NSLock()
    nonisolated(unsafe) private static var abandoned = 0

    private static func abandon(thread: pthread_t?) {
        abandonedLock.withLock { abandoned += 1 }
        // SCHED_IDLE: the abandoned thread keeps a core only when nothing else wants it.
        guard let thread else { return }
        var parameters = sched_param()
        _ = pthread_setschedparam(thread, 5 /* SCHED_IDLE, <linux/sched.h> */, &parameters)
    }

    private static func overdueOutcome(_ scenario: Scenario, progress: ScenarioProgress, allowance: Double) -> Outcome {
        let (step, text, task) = progress.snapshot
        var failures = [(step.map { scenario.steps[$0].path + ": " } ?? "") +
            "JavaScript did not return within the scenario's wall-time budget of \(ScriptWatchdog.seconds(scenario.wallBudget)) " +
            "(plus \(ScriptWatchdog.seconds(overdueGrace))) during \(text)" + (task.map { ", in the task \($0)" } ?? "") +
            ": a script that never yields and never calls the host (a promise job that queues itself?); its thread was abandoned"]
        let rest = scenario.steps.dropFirst((step ?? -1) + 1).map(\.path)
        if !rest.isEmpty { failures.append("not run: " + rest.joined(separator: ", ")) }
        let result = ScenarioResult(scenario: scenario, failures: failures, trace: "", virtualDuration: .zero, wallSeconds: allowance)
        return Outcome(result: result, baseline: nil, baselineWasMissing: false)
    }

    /// Runs one scenario and checks its baseline (unless `compareBaselines` is false: then only
    /// the scenario's own expectations decide, for exploratory runs).
    public static func runOne(
        _ scenario: Scenario, catalog: ScenarioCatalog, update: Bool, profile: Browser.Profile? = nil, compareBaselines: Bool = true,
        progress: ScenarioProgress? = nil, pool: EnginePool = .shared
    ) -> Outcome {
        let result = ScenarioRunner.run(scenario, profile: profile, progress: progress, pool: pool)
        let baselineURL = catalog.baselineURL(for: scenario.file)
        let wasMissing = !FileManager.default.fileExists(atPath: baselineURL.path)
        // A profile override produces a different trace than the recorded one; compare only the
        // scenario's own profile.
        guard compareBaselines, profile == nil || profile == scenario.profile else {
            return Outcome(result: result, baseline: nil, baselineWasMissing: wasMissing)
        }
        var mutable = result
        do {
            let baseline = try Baseline.check(result, catalog: catalog, update: update)
            return Outcome(result: result, baseline: baseline, baselineWasMissing: wasMissing)
        } catch {
            mutable.failures.append("cannot write the baseline results: \(error)")
            return Outcome(result: mutable, baseline: nil, baselineWasMissing: wasMissing)
        }
    }
}

/// Hands out indices to worker threads and collects their results, guarded by one condition.
final class WorkQueue<Result>: @unchecked Sendable {
    private let condition = NSCondition()
    private var next = 0
    private var results: [Result?]
    private var started: [UInt64?]
    private var liveWorkers = 0

    init(count: Int) {
        results = Array(repeating: nil, count: count)
        started = Array(repeating: nil, count: count)
    }

    /// The next index to work on, nil when all are taken.
    func take() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        guard next < results.count else { return nil }
        started[next] = DispatchTime.now().uptimeNanoseconds
        next += 1
        condition.broadcast()
        return next - 1
    }

    /// Records `result` for `index` unless one is there already; returns whether it was taken.
    /// With `abandoningWorker`, the worker on `index` no longer counts as live.
    @discardableResult
    func finish(_ index: Int, _ result: Result, abandoningWorker: Bool = false) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard results[index] == nil else { return false }
        results[index] = result
        if abandoningWorker { liveWorkers -= 1 }
        condition.broadcast()
        return true
    }

    func workerStarted() {
        condition.lock(); liveWorkers += 1; condition.unlock()
    }

    func workerEnded() {
        condition.lock(); liveWorkers -= 1; condition.broadcast(); condition.unlock()
    }

    /// Blocks until `index` is finished, or until it has run `allowance` seconds: then calls
    /// `overdue` (without the lock held), which may finish it, and waits on.
    func wait(for index: Int, allowance: Double, overdue: () -> Void) -> Result {
        condition.lock()
        while true {
            if let result = results[index] {
                condition.unlock()
                return result
            }
            guard let start = started[index] else {
                condition.wait()
                continue
            }
            let due = start &+ UInt64(min(allowance, 1e9) * 1e9)
            let now = DispatchTime.now().uptimeNanoseconds
            if now >= due {
                condition.unlock()
                overdue()
                condition.lock()
                continue
            }
            _ = condition.wait(until: Date(timeIntervalSinceNow: Double(due - now) / 1e9))
        }
    }

    /// Blocks until every live worker has ended (abandoned ones are not waited for).
    func waitForWorkers() {
        condition.lock()
        while liveWorkers > 0 { condition.wait() }
        condition.unlock()
    }
}
