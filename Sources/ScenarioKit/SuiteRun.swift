import BrowserRuntime
import Dispatch
import Foundation
import WebRuntime

/// Runs many scenarios, optionally in parallel, and reports each in input order.
///
/// Each scenario gets its own browser and context group, so running N at once changes no trace.
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

    /// Runs `scenarios` on `jobs` threads and calls `report` for each outcome in input order.
    public static func run(
        _ scenarios: [Scenario], catalog: ScenarioCatalog, jobs: Int, updateBaselines: Bool,
        profile: Browser.Profile? = nil, compareBaselines: Bool = true, report: (Int, Outcome) -> Void
    ) {
        let queue = WorkQueue<Outcome>(count: scenarios.count)
        let workers = max(1, min(jobs, scenarios.count))
        let group = DispatchGroup()
        for _ in 0..<workers {
            group.enter()
            Thread.detachNewThread {
                while let index = queue.take() {
                    queue.finish(index, runOne(scenarios[index], catalog: catalog, update: updateBaselines, profile: profile,
                                                    compareBaselines: compareBaselines))
                }
                group.leave()
            }
        }
        for index in 0..<scenarios.count {
            report(index, queue.wait(for: index))
        }
        group.wait()
    }

    /// Runs one scenario and checks its baseline (unless `compareBaselines` is false: then only
    /// the scenario's own expectations decide, for exploratory runs).
    public static func runOne(
        _ scenario: Scenario, catalog: ScenarioCatalog, update: Bool, profile: Browser.Profile? = nil, compareBaselines: Bool = true
    ) -> Outcome {
        let result = ScenarioRunner.run(scenario, profile: profile)
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

    init(count: Int) { results = Array(repeating: nil, count: count) }

    /// The next index to work on, nil when all are taken.
    func take() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        guard next < results.count else { return nil }
        next += 1
        return next - 1
    }

    func finish(_ index: Int, _ result: Result) {
        condition.lock()
        results[index] = result
        condition.broadcast()
        condition.unlock()
    }

    /// Blocks until `index` is finished.
    func wait(for index: Int) -> Result {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let result = results[index] { return result }
            condition.wait()
        }
    }
}
