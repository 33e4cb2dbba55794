import BlockerCore
import CommandLineKit
import Foundation

/// `adv-check bench`: decisions per second by DNR semantics and by Content Blocker evaluation.
enum BenchCommand {
    static let spec = CommandSpec(
        tool: "adv-check", command: "bench", options: ["--runs", "--requests"], flags: ["--json"], maxPositionals: 0,
        help: """
            usage: adv-check bench [--json] [--runs N] [--requests N]

            Decides generated requests (default 100000) against the 14 built-in rules plus
            1000 dynamic source-block rules, by DNR semantics and by the translated Content
            Blocker rules, on one thread, and prints the median of N runs (default 5):
              dnr_decisions_per_s              requests already parsed
              dnr_decisions_with_parsing_per_s including url/initiator/frame parsing
              content_blocker_decisions_per_s
            Build with -c release for meaningful figures.
            """)

    static func run(_ words: [String], output: CommandOutput) throws -> Int32 {
        let arguments = try Arguments(words, spec: spec)
        if arguments.wantsHelp {
            output.out(spec.help)
            return 0
        }
        let runs = try positiveInteger(arguments.value("--runs"), option: "--runs") ?? 5
        let count = try positiveInteger(arguments.value("--requests"), option: "--requests") ?? 100_000
        let result = try DecisionBenchmark(requestCount: count).run(runs: runs)
        if arguments.flags.contains("--json") {
            let object: [String: Any] = [
                "dnr_decisions_per_s": Int(result.dnrDecisionsPerSecond),
                "dnr_decisions_with_parsing_per_s": Int(result.dnrDecisionsWithParsingPerSecond),
                "content_blocker_decisions_per_s": Int(result.contentBlockerDecisionsPerSecond),
                "requests": result.requests, "static_rules": result.staticRules, "dynamic_rules": result.dynamicRules,
                "runs": result.runs, "dnr_blocked": result.dnrBlocked, "content_blocker_blocked": result.contentBlockerBlocked,
            ]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            output.out(String(decoding: data, as: UTF8.self))
        } else {
            output.out("requests \(result.requests) (static rules \(result.staticRules), dynamic rules \(result.dynamicRules), median of \(result.runs) runs)")
            output.out("dnr_decisions_per_s \(Int(result.dnrDecisionsPerSecond))")
            output.out("dnr_decisions_with_parsing_per_s \(Int(result.dnrDecisionsWithParsingPerSecond))")
            output.out("content_blocker_decisions_per_s \(Int(result.contentBlockerDecisionsPerSecond))")
            output.out("blocked: dnr \(result.dnrBlocked), content blocker \(result.contentBlockerBlocked)")
        }
        return 0
    }

    static func positiveInteger(_ text: String?, option: String) throws -> Int? {
        guard let text else { return nil }
        guard let value = Int(text), value > 0 else {
            throw UsageError("option '\(option)' needs a positive whole number, got '\(text)'")
        }
        return value
    }
}
