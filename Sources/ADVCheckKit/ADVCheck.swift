import BlockerCore
import RuleStore

/// The `adv-check` commands as a library: `run` parses, validates, acts, prints
/// and returns the exit code (0 ok, 1 check failed, 2 bad input).
public enum ADVCheck {
    /// Exit status for bad input (arguments, rule files, fixtures, manifest).
    public static let badInput: Int32 = 2
    /// Exit status when a check ran and found a problem.
    public static let checkFailed: Int32 = 1

    static let usage = """
        usage: adv-check <command> [options]

        commands:
          export [output.json]      write the built-in DNR rules (stdout without a file)
          verify [options]          compare DNR and Content Blocker decisions on fixtures
          package [--out DIR]       assemble and validate the extension's resources
          bench [--json]            measure decisions per second
          rules show|validate|merge|bench FILE...
                                    inspect personal-rule collections (see 'adv-check rules --help')

        'adv-check <command> --help' describes each command.
        """

    /// Runs one command line with relative paths resolved against `directory`
    /// (without changing the process's working directory).
    public static func run(_ arguments: [String], output: CheckOutput, directory: String) -> Int32 {
        FileHandleWriter.$baseDirectory.withValue(directory) { run(arguments, output: output) }
    }

    /// Runs one command line (without the program name).
    public static func run(_ arguments: [String], output: CheckOutput) -> Int32 {
        guard let command = arguments.first else {
            output.err(usage)
            return badInput
        }
        let rest = Array(arguments.dropFirst())
        do {
            switch command {
            case "export": return try ExportCommand.run(rest, output: output)
            case "verify": return try VerifyCommand.run(rest, output: output)
            case "package": return try PackageCommand.run(rest, output: output)
            case "bench": return try BenchCommand.run(rest, output: output)
            case "rules":
                // RuleStore writes whole chunks (with their own newlines); CheckOutput adds one.
                return RulesCommand.run(arguments: rest, output: RulesCommand.Output(
                    out: { output.out($0, terminator: "") },
                    err: { text in output.err(text.hasSuffix("\n") ? String(text.dropLast()) : text) }))
            case "--help", "-h", "help":
                output.out(usage)
                return 0
            default:
                let names = ["export", "verify", "package", "bench", "rules"]
                let hint = names.first { $0.hasPrefix(String(command.prefix(2))) }.map { "; did you mean '\($0)'?" } ?? ""
                output.err("error: unknown command '\(command)'\(hint) (adv-check --help lists commands)")
                return badInput
            }
        } catch let error as InputError {
            output.err("error: \(error)")
            return badInput
        } catch {
            output.err("error: \(error)")
            return badInput
        }
    }
}
