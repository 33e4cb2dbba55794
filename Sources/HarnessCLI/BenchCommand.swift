import ADVHarnessSupport
import BrowserRuntime
import CommandLineKit
import Foundation
import RuntimeBench
import ScenarioKit
import WebRuntime

/// `adv-harness bench`: prints the runtime's performance figures (medians and p90).
enum BenchCommand {
    static let spec = CommandSpec(tool: "adv-harness", command: "bench", options: ["--iterations", "--metric"], flags: ["--json", "--print-fixture"], maxPositionals: 0, help: help)

    static let help = """
    usage: adv-harness bench [--json] [--iterations N] [--metric NAME] | --print-fixture

    Measures, in this process:
      fresh_page_ms     a navigation in an existing session (new page and content worlds,
                        a 200-element page parsed, one content script run)
      fresh_session_ms  a new context group from nothing to the same point
      pooled_session_ms a new browser in a warm engine (as each scenario of a run gets) to the
                        same point
      bare_session_ms   the floor under fresh_session_ms: a new context group with only domino
                        in it, the same page parsed and the same query and style writes
      scenarios_per_second_jobs1 / _jobs2
                        a typical scenario (one page, 60 s simulated) through the suite runner
      memory_growth_1000_mb  resident memory gained from the 100th to the 1,000th run of the
                        typical scenario in this process
      virtual_hour_ms   wall time to simulate one hour of a page polling every second
      first_hide_ms     WebExtension/ with 50 personal filters on a 2,000-element page: navigation
                        start to the first filtered element hidden (the checks that still find it
                        shown are not counted)
      mutation_cost_us  extra wall time per node the page inserts (100 a second), with the
                        extension against without
      computed_style_us getComputedStyle(e).display over all elements of a 2,000-element page
                        with 300 author rules, after a DOM change (median per call)
      computed_style_cold_us  the same pass right after a style sheet change
      query_selector_all_us  document.querySelectorAll over the same page, ten selectors of the
                        kinds content scripts use (median per query)
      round_trip_us     runtime.sendMessage content script -> background -> response
      storage_us        storage.local.set of a 1,000-entry object, then get of everything
    --json prints one JSON object: metric name -> {median, p90, unit, samples}.
    --metric NAME measures only that metric (for profiling one of them).
    --print-fixture prints the 200-element page the startup metrics parse, and its content
    script, for timing another runtime on the same work (fixtures/bench/jsdom.js).
    Build with 'swift build -c release' for representative figures.
    """

    static func run(_ words: [String], output: CommandOutput) throws -> Int32 {
        let arguments = try Arguments(words, spec: spec)
        if arguments.wantsHelp { output.out(spec.help); return 0 }
        if arguments.has("--print-fixture") {
            output.out(StartupBenchmark.fixture() + "<!-- content script: " + StartupBenchmark.contentScript.source + " -->")
            return 0
        }
        var iterations = 60
        if let text = arguments.value("--iterations") {
            guard let value = Int(text), value >= 1 else {
                throw UsageError("--iterations must be a positive whole number, got '\(text)'")
            }
            iterations = value
        }
        // Each entry measures one or more metrics; --metric runs the entry that names it.
        var all: [(names: [String], run: () throws -> [BenchMeasurement])] = [
            (["fresh_page_ms"], { [try StartupBenchmark.freshPage(iterations: iterations)] }),
            (["fresh_session_ms"], { [try StartupBenchmark.freshSession(iterations: max(1, iterations * 5 / 6))] }),
            (["pooled_session_ms"], { [try StartupBenchmark.pooledSession(iterations: iterations)] }),
            (["bare_session_ms"], { [try StartupBenchmark.bareSession(iterations: max(1, iterations * 5 / 6))] }),
            (["virtual_hour_ms"], { [try ScenarioBenchmark.virtualHour(iterations: min(5, iterations))] }),
            (["computed_style_us", "computed_style_cold_us"], { try ComputedStyleBenchmark.run(iterations: max(1, iterations / 2)) }),
            (["query_selector_all_us"], { [try QuerySelectorBenchmark.run(iterations: max(1, iterations / 2))] }),
        ]
        if let catalog = ADVHarnessSupport.catalog() {
            let count = min(40, max(2, iterations))
            all.append((["scenarios_per_second_jobs1"], { [try ScenarioBenchmark.throughput(jobs: 1, count: count, catalog: catalog)] }))
            all.append((["scenarios_per_second_jobs2"], { [try ScenarioBenchmark.throughput(jobs: 2, count: count, catalog: catalog)] }))
            all.append((["memory_growth_1000_mb"], { [try ScenarioBenchmark.memoryGrowth(runs: iterations >= 60 ? 1000 : max(10, iterations * 10), catalog: catalog)] }))
            all.append((["first_hide_ms"], { [try FilterBenchmark.firstHide(iterations: iterations, catalog: catalog)] }))
            all.append((["mutation_cost_us"], { [try FilterBenchmark.mutationCost(rounds: min(5, max(1, iterations / 10)), catalog: catalog)] }))
        }
        all.append((["round_trip_us"], { [try ExtensionBenchmark.roundTrip(iterations: iterations * 4)] }))
        all.append((["storage_us"], { [try ExtensionBenchmark.storage(iterations: iterations)] }))
        var selected = all
        if let metric = arguments.value("--metric") {
            selected = all.filter { $0.names.contains(metric) }
            guard !selected.isEmpty else {
                throw UsageError("unknown metric '\(metric)'; choose one of \(all.flatMap(\.names).joined(separator: ", "))")
            }
        }
        let measurements = try selected.flatMap { try $0.run() }
        if arguments.has("--json") {
            output.out(jsonReport(measurements))
        } else {
            output.out("metric".padding(toLength: 28, withPad: " ", startingAt: 0) + "median          p90             samples")
            for m in measurements {
                output.out(m.name.padding(toLength: 28, withPad: " ", startingAt: 0)
                    + format(m.median, m.unit).padding(toLength: 16, withPad: " ", startingAt: 0)
                    + format(m.p90, m.unit).padding(toLength: 16, withPad: " ", startingAt: 0)
                    + "\(m.samples.count)")
            }
        }
        return 0
    }

    static func format(_ value: Double, _ unit: String) -> String {
        String(format: "%.3f %@", value, unit)
    }

    static func jsonReport(_ measurements: [BenchMeasurement]) -> String {
        let entries = measurements.map { m in
            "\"\(m.name)\":{\"median\":\(String(format: "%.4f", m.median)),\"p90\":\(String(format: "%.4f", m.p90)),\"samples\":\(m.samples.count),\"unit\":\"\(m.unit)\"}"
        }
        return "{" + entries.joined(separator: ",") + "}"
    }
}
