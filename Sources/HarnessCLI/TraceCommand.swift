import ADVHarnessSupport
import BrowserRuntime
import CommandLineKit
import Foundation
import RuntimeBench
import ScenarioKit
import WebRuntime

/// `adv-harness trace`: runs one scenario and prints its trace (or some channels of it).
enum TraceCommand {
    static let spec = CommandSpec(tool: "adv-harness", command: "trace", options: ["--from", "--to", "--profile"], repeatable: ["--channel"], help: help)

    static let help = """
    usage: adv-harness trace SCENARIO [--channel NAME]... [--from MS] [--to MS] [--profile NAME]

    Runs SCENARIO (a file, or suite/name) and prints its trace, one event a line:
    virtual time, where, channel, what. --channel toolbar gives the toolbar-state dump (one line
    per state change: tab, icon, badge, title and the reason). Channels: toolbar, media, dom,
    storage, dnr, network, api, navigation, console, error, harness.
    """

    static func run(_ words: [String], output: CommandOutput) throws -> Int32 {
        let arguments = try Arguments(words, spec: spec)
        if arguments.wantsHelp { output.out(spec.help); return 0 }
        guard arguments.positionals.count == 1, let target = arguments.positionals.first else {
            throw UsageError("trace takes one scenario, got \(arguments.positionals.count) (adv-harness list shows them)")
        }
        let catalog = try RunCommand.locateCatalog()
        var file = URL(fileURLWithPath: target)
        if !FileManager.default.fileExists(atPath: file.path) {
            file = catalog.scenariosFolder.appendingPathComponent(target + ".json")
            guard FileManager.default.fileExists(atPath: file.path) else {
                throw UsageError("unknown scenario '\(target)'; give a file or suite/name (adv-harness list shows them)")
            }
        }
        let known: Set<String> = ["toolbar", "media", "dom", "storage", "dnr", "network", "api", "navigation", "console", "error", "harness"]
        let channels = arguments.values["--channel"] ?? []
        for channel in channels where !known.contains(channel) {
            throw UsageError("unknown channel '\(channel)' (known: \(known.sorted().joined(separator: ", ")))")
        }
        func time(_ flag: String) throws -> VirtualTime? {
            guard let text = arguments.value(flag) else { return nil }
            guard let ms = Double(text), ms >= 0 else { throw UsageError("\(flag) must be a number of milliseconds, got '\(text)'") }
            return .milliseconds(ms)
        }
        let from = try time("--from"), to = try time("--to")
        var profile: Browser.Profile?
        if let text = arguments.value("--profile") {
            guard let value = Browser.Profile(rawValue: text) else { throw UsageError("--profile must be safari or chromium, got '\(text)'") }
            profile = value
        }
        let scenario = try catalog.scenario(at: file)
        let result = ScenarioRunner.run(scenario, profile: profile)
        let selected = Set(channels.map { TraceChannel($0) })
        let lines = result.trace.split(separator: "\n").filter { line in
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count >= 3 else { return false }
            if !selected.isEmpty, !selected.contains(TraceChannel(String(parts[2]))) { return false }
            let stamp = VirtualTime.parse(String(parts[0]))
            if let from, let stamp, stamp < from { return false }
            if let to, let stamp, stamp > to { return false }
            return true
        }
        for line in lines { output.out(String(line)) }
        for failure in result.failures { output.err("adv-harness: \(scenario.id): \(failure)") }
        return result.passed ? 0 : 1
    }
}

extension VirtualTime {
    /// Parses `1500ms` / `12.5ms` as printed in traces.
    static func parse(_ text: String) -> VirtualTime? {
        guard text.hasSuffix("ms"), let value = Double(text.dropLast(2)) else { return nil }
        return .milliseconds(value)
    }
}
