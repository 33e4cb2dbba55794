import BrowserRuntime
import Foundation
import ScenarioKit
import TestSupport
import Testing
import WebRuntime

/// Every scenario of every suite, through the same runner and baseline check as
/// `adv-harness run`: a failure names the scenario and shows the trace diff.
@Suite struct ScenarioSuiteTests {
    static let catalog = Support.catalog
    static let files = catalog.allFiles()

    @Test func suitesExist() {
        #expect(!Self.files.isEmpty)
    }

    @Test(arguments: files.map { $0.deletingLastPathComponent().lastPathComponent + "/" + $0.deletingPathExtension().lastPathComponent })
    func scenario(_ id: String) throws {
        let file = Self.catalog.scenariosFolder.appendingPathComponent(id + ".json")
        let scenario = try Self.catalog.scenario(at: file)
        let outcome = SuiteRun.runOne(scenario, catalog: Self.catalog, update: false)
        let failures = outcome.failures
        #expect(failures.isEmpty, "\(id):\n\(failures.joined(separator: "\n"))")
        #expect(outcome.result.sessionReleased, "\(id): the finished session's context group is still alive")
    }

    @Test func tracesAreByteIdenticalAcrossRunsAndJobs() throws {
        let scenarios = try Self.files.map { try Self.catalog.scenario(at: $0) }
        var first: [String] = []
        SuiteRun.run(scenarios, catalog: Self.catalog, jobs: 1, updateBaselines: false) { _, outcome in first.append(outcome.result.trace) }
        var second: [String] = []
        SuiteRun.run(scenarios, catalog: Self.catalog, jobs: 2, updateBaselines: false) { _, outcome in second.append(outcome.result.trace) }
        #expect(first == second)
        #expect(first.allSatisfy { !$0.isEmpty })
    }

    /// Order cannot matter, and warm engines are exact: three shuffled orders in warm engines and
    /// one run with an engine per scenario (`--isolate`) give every scenario the trace it has
    /// in file order (issue 19, point 3).
    @Test func tracesAreByteIdenticalInAnyOrderAndInEnginesOfTheirOwn() throws {
        let scenarios = try Self.files.map { try Self.catalog.scenario(at: $0) }
        func traces(_ list: [Scenario], pool: EnginePool = .shared) -> [String: String] {
            var out: [String: String] = [:]
            SuiteRun.run(list, catalog: Self.catalog, jobs: 2, updateBaselines: false, pool: pool) { _, outcome in
                out[outcome.result.scenario.id] = outcome.result.trace
            }
            return out
        }
        let inOrder = traces(scenarios)
        #expect(inOrder.count == scenarios.count)
        for seed: UInt64 in [1, 2, 3] {
            let shuffled = SuiteRun.shuffle(scenarios, seed: seed)
            #expect(shuffled.map(\.id) != scenarios.map(\.id))
            let seen = traces(shuffled)
            for id in inOrder.keys.sorted() where seen[id] != inOrder[id] {
                Issue.record("\(id) differs with --shuffle \(seed)")
            }
        }
        let isolating = EnginePool()
        isolating.reuses = false
        let isolated = traces(scenarios, pool: isolating)
        for id in inOrder.keys.sorted() where isolated[id] != inOrder[id] {
            Issue.record("\(id) differs with --isolate")
        }
        #expect(isolating.statistics.reused == 0 && isolating.statistics.made == scenarios.count)
    }
}
