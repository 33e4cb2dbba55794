import BrowserRuntime
import Dispatch
import Foundation
import JSKit
import ScenarioKit
import WebRuntime

/// Measures scenario throughput and the cost of virtual time.
///
/// - `scenarios_per_second` (`--jobs 1` and `--jobs 2`): a typical scenario (an extension with a
///   background and content script, one page, a page script, 60 s simulated, trace compared)
///   run many times through the suite runner.
/// - `memory_growth_1000_mb`: resident memory gained from the 100th to the 1,000th run of it.
/// - `virtual_hour_ms`: wall time to simulate one hour of a page polling every second.
public enum ScenarioBenchmark {
    /// Writes the typical scenario into a temporary folder inside `catalog`'s fixtures reach;
    /// the caller removes `folder` when done.
    static func typicalScenario(catalog: ScenarioCatalog) throws -> (scenario: Scenario, folder: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("adv-bench-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let page = folder.appendingPathComponent("page.html")
        try StartupBenchmark.fixture(elements: 200).write(to: page, atomically: true, encoding: .utf8)
        let file = folder.appendingPathComponent("typical.json")
        try """
        {
          "description": "benchmark: one page, 60 s simulated",
          "extension": "extensions/sample-notes",
          "sitePermissions": { "*": "always" },
          "pages": { "https://bench.example/": "\(page.path)" },
          "steps": [
            { "at": 0, "open": "https://bench.example/" },
            { "at": 1000, "script": "setInterval(() => document.body.setAttribute('data-tick', String(performance.now())), 5000)" },
            { "at": 30000, "expect": { "visible": "#sample-notes-count" } },
            { "at": 60000, "expect": { "js": "document.body.getAttribute('data-tick')", "equals": "56000" } }
          ]
        }
        """.write(to: file, atomically: true, encoding: .utf8)
        return (try catalog.scenario(at: file), folder)
    }

    /// Runs `count` copies of the typical scenario on `jobs` threads, five times after one
    /// untimed round that warms the workers' engines (as a run's first scenarios do while its
    /// files are validated); scenarios per wall second.
    /// - Throws: when the scenario cannot be written or fails.
    public static func throughput(jobs: Int, count: Int = 40, catalog: ScenarioCatalog) throws -> BenchMeasurement {
        let (scenario, folder) = try typicalScenario(catalog: catalog)
        // The bench leaves nothing behind in the temporary folder.
        defer { try? FileManager.default.removeItem(at: folder) }
        var samples: [Double] = []
        SuiteRun.run(Array(repeating: scenario, count: jobs * 2), catalog: catalog, jobs: jobs, updateBaselines: false) { _, _ in }
        for _ in 0..<5 {
            let start = DispatchTime.now().uptimeNanoseconds
            var failures = 0
            SuiteRun.run(Array(repeating: scenario, count: count), catalog: catalog, jobs: jobs, updateBaselines: false) { _, outcome in
                if !outcome.result.passed { failures += 1 }
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            guard failures == 0 else { throw BrowserError("the benchmark scenario failed \(failures) times") }
            samples.append(Double(count) / seconds)
        }
        return BenchMeasurement(name: "scenarios_per_second_jobs\(jobs)", unit: "per_s", samples: samples)
    }

    /// Resident megabytes gained from the 100th to the 1,000th run of the typical scenario in one
    /// process, one job: what warm engines keep across a long run (bounded by the pool's discard
    /// after ``EnginePool/maximumSessions``).
    /// - Throws: when the scenario cannot be written or fails.
    public static func memoryGrowth(runs: Int = 1000, catalog: ScenarioCatalog) throws -> BenchMeasurement {
        let (scenario, folder) = try typicalScenario(catalog: catalog)
        defer { try? FileManager.default.removeItem(at: folder) }
        let early = max(1, runs / 10)
        var failures = 0
        var afterEarly = 0
        for index in 1...runs {
            if !ScenarioRunner.run(scenario).passed { failures += 1 }
            if index == early { afterEarly = ProcessMemory.residentBytes(trimmingMalloc: true) }
        }
        guard failures == 0 else { throw BrowserError("the benchmark scenario failed \(failures) times") }
        let growth = Double(ProcessMemory.residentBytes(trimmingMalloc: true) - afterEarly) / 1_048_576
        return BenchMeasurement(name: "memory_growth_1000_mb", unit: "MB", samples: [growth])
    }

    /// Wall milliseconds to simulate one virtual hour of a page with a 1 s polling timer.
    /// - Throws: when the page cannot load.
    public static func virtualHour(iterations: Int = 5) throws -> BenchMeasurement {
        var samples: [Double] = []
        for _ in 0..<iterations {
            let session = try WebSession()
            let page = try session.open(html: "<script>let polls = 0; setInterval(() => { polls++; document.title = String(polls); }, 1000);</script>", url: "https://poll.example/")
            let start = DispatchTime.now().uptimeNanoseconds
            try session.loop.advance(by: .seconds(3600))
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            guard page.document["title"].stringValue == "3600" else { throw BrowserError("the polling page did not poll 3600 times") }
        }
        return BenchMeasurement(name: "virtual_hour_ms", unit: "ms", samples: samples)
    }
}
