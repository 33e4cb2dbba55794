import BlockerCore
import CommandLineKit
import RuleStore
import Suggestion

/// The `adv-check` commands as a library: `run` parses, validates, acts, prints
/// and returns the exit code (0 ok, 1 check failed, 2 bad input).
public enum ADVCheck {
    /// Exit status for bad input (arguments, rule files, fixtures, manifest).
    public static let badInput = ExitStatus.badInput
    /// Exit status when a check ran and found a problem.
    public static let checkFailed = ExitStatus.checkFailed

    static let usage = """
        usage: adv-check <command> [options]

        commands:
          export [output.json]      write the built-in DNR rules (stdout without a file)
          verify [options]          compare DNR and Content Blocker decisions on fixtures
          package [--out DIR]       assemble and validate the extension's resources
          bench [--json]            measure decisions per second
          rules show|validate|check|merge|bench FILE...
                                    inspect personal-rule collections (see 'adv-check rules --help')

        'adv-check <command> --help' describes each command.
        """

    static let commands = ["export", "verify", "package", "bench", "rules", "help"]

    /// Runs one command line with relative paths resolved against `directory`
    /// (without changing the process's working directory).
    public static func run(_ arguments: [String], output: CommandOutput, directory: String) -> Int32 {
        FileHandleWriter.$baseDirectory.withValue(directory) { run(arguments, output: output) }
    }

    /// Runs one command line (without the program name).
    public static func run(_ arguments: [String], output: CommandOutput) -> Int32 {
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
            case "rules": return try RulesCommand.run(rest, output: output)
            case "--help", "-h", "help":
                output.out(usage)
                return 0
            default:
                let hint = Suggestion.hint(for: command, in: commands)
                throw UsageError("unknown command '\(command)'\(hint) (adv-check --help lists commands)")
            }
        } catch {
            // Usage errors, input files (InputError), rule documents (RuleStoreError): bad input.
            output.err("adv-check: \(error)")
            return badInput
        }
    }
}
