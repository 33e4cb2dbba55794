import ADVHarnessSupport
import BrowserRuntime
import CommandLineKit
import Foundation
import RuntimeBench
import ScenarioKit
import WebRuntime

/// `adv-harness list`: the suites and their scenarios with what each proves.
enum ListCommand {
    static let spec = CommandSpec(tool: "adv-harness", command: "list", help: help)

    static let help = """
    usage: adv-harness list [SUITE]...

    Lists the scenario suites under fixtures/scenarios and each scenario with its description.
    """

    static func run(_ words: [String], output: CommandOutput) throws -> Int32 {
        let arguments = try Arguments(words, spec: spec)
        if arguments.wantsHelp { output.out(spec.help); return 0 }
        let catalog = try RunCommand.locateCatalog()
        let suites = arguments.positionals.isEmpty ? catalog.suites() : arguments.positionals
        for suite in suites {
            let files = try catalog.resolve([suite])
            output.out("\(suite) (\(files.count) scenario\(files.count == 1 ? "" : "s"))")
            for file in files {
                let scenario = try catalog.scenario(at: file)
                let description = scenario.description.isEmpty ? "" : " — " + scenario.description
                output.out("  \(scenario.name)\(description)")
            }
        }
        return 0
    }
}
