import CommandLineKit
import Foundation
import HarnessCLI
import RuntimeBench
import JSKit
import ScenarioKit
import TestSupport
import Testing
import WebRuntime

// Serialized: two benchmarks of this suite running at once would see each other's temporary folders.
@Suite(.serialized) struct BenchTests {
    @Test func medianAndP90FollowTheirDefinitions() {
        let odd = BenchMeasurement(name: "m", unit: "ms", samples: [5, 1, 3, 2, 4])
        #expect(odd.median == 3)
        #expect(odd.p90 == 5)
        let even = BenchMeasurement(name: "m", unit: "ms", samples: Array(1...10).map(Double.init))
        #expect(even.median == 5.5)
        #expect(even.p90 == 9)
    }

    @Test func benchJSONHasOneEntryPerMetric() throws {
        let (output, out, _) = CommandOutput.buffer()
        #expect(HarnessCommand.run(["bench", "--json", "--iterations", "2"], output: output) == 0)
        let object = try JSONSerialization.jsonObject(with: Data(out().utf8)) as? [String: [String: Any]]
        let keys = Set(object.map { Array($0.keys) } ?? [])
        #expect(keys.isSuperset(of: ["fresh_page_ms", "fresh_session_ms", "pooled_session_ms", "bare_session_ms", "virtual_hour_ms", "computed_style_us",
                                     "computed_style_cold_us", "query_selector_all_us", "round_trip_us", "storage_us", "first_hide_ms", "mutation_cost_us",
                                     "scenarios_per_second_jobs1", "scenarios_per_second_jobs2", "memory_growth_1000_mb"]))
        #expect(object?["memory_growth_1000_mb"]?["unit"] as? String == "MB")
        #expect((object?["pooled_session_ms"]?["median"] as? Double ?? 0) > 0)
        #expect(object?["round_trip_us"]?["unit"] as? String == "us")
        #expect((object?["storage_us"]?["median"] as? Double ?? 0) > 0)
        #expect(object?["fresh_page_ms"]?["unit"] as? String == "ms")
        #expect((object?["fresh_page_ms"]?["median"] as? Double ?? 0) > 0)
    }

    @Test func computedStyleFixtureHasTwoThousandElementsAndThreeHundredRules() throws {
        let session = try WebSession()
        let page = try session.open(html: ComputedStyleBenchmark.fixture(), url: "https://bench.example/")
        #expect(try page.pageWorld.evaluate("document.body.querySelectorAll('*').length", sourceURL: "t").numberValue == 2000)
        #expect(try page.pageWorld.evaluate("document.styleSheets[0].cssRules.length", sourceURL: "t").numberValue == 300)
    }

    @Test func benchFixtureHasTwoHundredElementsInBody() throws {
        let session = try WebSession()
        let page = try session.open(html: StartupBenchmark.fixture(), url: "https://bench.example/")
        #expect(try page.pageWorld.evaluate("document.body.querySelectorAll('*').length", sourceURL: "t").numberValue == 200)
    }

    /// The floor under fresh_session_ms does the same page work: 200 elements parsed, the ad
    /// slots found and hidden, in a context group of its own.
    @Test func bareSessionParsesTheFixtureAndRunsTheContentScript() throws {
        let html = StartupBenchmark.fixture()
        let slots = html.components(separatedBy: " ad-slot\"").count - 1
        let context = try StartupBenchmark.bareSession(domino: try JSPackages.domino(), html: html)
        #expect(try context.evaluate("document.body.querySelectorAll('*').length").numberValue == 200)
        let hidden = (try context.evaluate("[...document.querySelectorAll('.ad-slot')].map((e) => e.style.display).join()").stringValue ?? "")
            .split(separator: ",")
        #expect(slots > 0 && hidden.count == slots && hidden.allSatisfy { $0 == "none" })
        #expect(try context.evaluate("typeof window").stringValue == "undefined")
    }

    @Test func benchRunsOneMetricOrNamesTheChoices() throws {
        let (output, out, err) = CommandOutput.buffer()
        #expect(HarnessCommand.run(["bench", "--json", "--iterations", "1", "--metric", "round_trip_us"], output: output) == 0)
        #expect(out().hasPrefix(#"{"round_trip_us":"#))
        #expect(HarnessCommand.run(["bench", "--metric", "speed"], output: output) == 2)
        #expect(err().contains("unknown metric 'speed'; choose one of fresh_page_ms, fresh_session_ms, pooled_session_ms, bare_session_ms, virtual_hour_ms"))
        #expect(err().contains("round_trip_us, storage_us"))
    }

    @Test func theScenarioBenchmarkLeavesNoTemporaryFolderBehind() throws {
        func ours() -> Set<String> {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)) ?? []
            return Set(names.filter { $0.hasPrefix("adv-bench-\(getpid())") })
        }
        let before = ours()
        let measurement = try ScenarioBenchmark.throughput(jobs: 1, count: 2, catalog: Support.catalog)
        #expect(measurement.samples.count == 5)
        #expect(ours() == before, "bench left \(ours().subtracting(before).sorted())")
    }
}
