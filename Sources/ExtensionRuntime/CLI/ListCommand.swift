import Foundation

/// `adv-harness list`: the suites and their scenarios with what each proves.
enum ListCommand {
    static let help = """
    usage: adv-harness list [SUITE]...

    Lists the scenario suites under fixtures/scenarios and each scenario with its description.
    """

    static func run(_ arguments: [String], output: CommandOutput) throws -> Int32 {
        if arguments.contains("--help") { output.line(help); return 0 }
        var reader = ArgumentReader(arguments)
        _ = try reader.parse(valueFlags: [], boolFlags: [], command: "list")
        let catalog = try RunCommand.locateCatalog()
        let suites = reader.positionals.isEmpty ? catalog.suites() : reader.positionals
        for suite in suites {
            let files = try catalog.resolve([suite])
            output.line("\(suite) (\(files.count) scenario\(files.count == 1 ? "" : "s"))")
            for file in files {
                let scenario = try Scenario.load(file, projectRoot: catalog.projectRoot)
                let description = scenario.description.isEmpty ? "" : " — " + scenario.description
                output.line("  \(scenario.name)\(description)")
            }
        }
        return 0
    }
}
