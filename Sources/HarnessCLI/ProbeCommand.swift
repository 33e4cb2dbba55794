import CommandLineKit
import Foundation
import ScenarioKit
import Suggestion

/// `adv-harness probe`: runs a fidelity case file (the format of fixtures/fidelity/cases) in the
/// harness, to print what each probe gives here or to compare with what WebKit recorded.
enum ProbeCommand {
    static let spec = CommandSpec(tool: "adv-harness", command: "probe", options: ["--expected"], repeatable: ["--fixture"],
                                  flags: ["--json"], maxPositionals: 1, help: help)

    static let help = """
    usage: adv-harness probe CASES.json [--expected EXPECTED.json] [--fixture NAME]... [--json]

    Runs each fixture of a case file in the harness (a page, then its probes, JavaScript
    expressions evaluated after a task each, in the page's main world or, for a fixture with
    "world": "isolated", in a content script's world) and prints every probe's
    value. With --expected (what fixtures/fidelity/record.py wrote after running the same file
    in WebKitGTK), prints only the probes whose values differ, then a summary, and exits 1 when
    one differs. A probe listed under its fixture's "differences" is compared with the value
    given there (the harness's documented behaviour) and counted apart.
      --fixture NAME   run only this fixture (may be given again)
      --json           print the harness's values as an expectations file (record.py's format)
    The format is in fixtures/fidelity/README.md. To check the harness against your own page:
      fixtures/fidelity/record.py mine.json --out mine.expected.json
      adv-harness probe mine.json --expected mine.expected.json
    Exit status: 0 all agree (or values printed), 1 a probe differs, 2 bad input.
    """

    static func run(_ words: [String], output: CommandOutput) throws -> Int32 {
        let arguments = try Arguments(words, spec: spec)
        if arguments.wantsHelp { output.out(spec.help); return 0 }
        guard let casesPath = arguments.positionals.first else { throw spec.error("give a case file") }
        let file = try ProbeCaseFile.load(URL(fileURLWithPath: casesPath), named: casesPath)
        let expectations = try arguments.value("--expected").map { try ProbeExpectations.load(URL(fileURLWithPath: $0), named: $0) }
        let wanted = arguments.values["--fixture"] ?? []
        let names = Set(file.fixtures.map(\.name))
        for name in wanted where !names.contains(name) {
            throw spec.error("no fixture '\(name)' in \(casesPath)\(Suggestion.hint(for: name, in: names.sorted()))")
        }
        if let expectations {
            for fixture in file.fixtures where wanted.isEmpty || wanted.contains(fixture.name) {
                let recorded = expectations.results[fixture.name]?.count ?? 0
                if recorded != fixture.probes.count && fixture.recorded {
                    throw UsageError("\(arguments.value("--expected") ?? ""): fixture '\(fixture.name)' has \(recorded) recorded values for \(fixture.probes.count) probes; record the case file again")
                }
            }
        }
        let comparisons = ProbeRun.compare(file, with: expectations, only: wanted.isEmpty ? nil : Set(wanted))
        if arguments.has("--json") {
            output.out(ProbeRun.expectationsText(comparisons, engine: "adv-harness"))
            return 0
        }
        guard expectations != nil else {
            for item in comparisons { output.out("\(item.fixture)[\(item.index)] \(item.expression)\n  = \(item.actual)") }
            return 0
        }
        var differ = 0, documented = 0, unrecorded = 0
        for item in comparisons {
            guard let expected = item.expected else { unrecorded += 1; continue }
            if item.knownDifference != nil { documented += 1 }
            if item.agrees { continue }
            differ += 1
            output.out("DIFF \(item.fixture)[\(item.index)] \(item.expression)")
            if let why = item.knownDifference {
                output.out("  documented: \(expected) (\(why))")
            } else {
                output.out("  WebKit:  \(expected)")
            }
            output.out("  harness: \(item.actual)")
        }
        var summary = "\(comparisons.count) probes: \(comparisons.count - differ - unrecorded) agree, \(differ) differ"
        if documented > 0 { summary += " (\(documented) compared with a documented difference)" }
        if unrecorded > 0 { summary += ", \(unrecorded) not recorded" }
        output.out(summary)
        return differ > 0 ? ExitStatus.checkFailed : ExitStatus.success
    }
}
