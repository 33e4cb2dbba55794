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
}
