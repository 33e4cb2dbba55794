import Foundation

/// The `adv-harness` command line: parses arguments, calls the library, prints, and returns the
/// exit code (0 success, 1 a failed check, 2 bad input).
public enum HarnessCommand {
    static let usage = """
    usage: adv-harness <command> [options]

    commands:
      demo [PAGE.html]   load a fixture page on the virtual clock, run a content script, print what it saw
      bench [--json]     measure page and session start-up (medians and p90 over many fresh pages)
      help [COMMAND]     show help for a command

    'adv-harness <command> --help' shows a command's options.
    """

    /// Runs the command line `arguments` (without the program name).
    /// - Returns: the process exit code.
    public static func run(_ arguments: [String], output: CommandOutput = .standard()) -> Int32 {
        guard let command = arguments.first else {
            output.line(usage)
            return 2
        }
        let rest = Array(arguments.dropFirst())
        do {
            switch command {
            case "demo": return try DemoCommand.run(rest, output: output)
            case "bench": return try BenchCommand.run(rest, output: output)
            case "help", "--help", "-h":
                if let topic = rest.first { return run([topic, "--help"], output: output) }
                output.line(usage)
                return 0
            default:
                let known = ["demo", "bench", "help"]
                let suggestion = known.first { $0.hasPrefix(String(command.prefix(2))) }
                throw UsageError("unknown command '\(command)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "") + " (adv-harness --help lists commands)")
            }
        } catch let error as UsageError {
            output.error("adv-harness: \(error.message)")
            return 2
        } catch {
            output.error("adv-harness: \(error)")
            return 2
        }
    }
}
