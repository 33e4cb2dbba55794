import Foundation

/// The `adv-harness` command line: parses arguments, calls the library, prints, and returns the
/// exit code (0 success, 1 a failed check, 2 bad input).
public enum HarnessCommand {
    static let usage = """
    usage: adv-harness <command> [options]

    commands:
      run [SUITE|FILE|DIR]...   run scenarios and compare their traces with the golden baselines
      trace SCENARIO            print a scenario's trace (--channel toolbar: the toolbar-state dump)
      list [SUITE]...           list suites and scenarios
      bench [--json]            print the performance figures (medians and p90)
      demo [PAGE.html]          load one page on the virtual clock with a content script, print what it saw
      help [COMMAND]            show help for a command

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
            case "run": return try RunCommand.run(rest, output: output)
            case "trace": return try TraceCommand.run(rest, output: output)
            case "list": return try ListCommand.run(rest, output: output)
            case "demo": return try DemoCommand.run(rest, output: output)
            case "bench": return try BenchCommand.run(rest, output: output)
            case "help", "--help", "-h":
                if let topic = rest.first { return run([topic, "--help"], output: output) }
                output.line(usage)
                return 0
            default:
                let known = ["run", "trace", "list", "bench", "demo", "help"]
                let suggestion = known.first { $0.hasPrefix(String(command.prefix(2))) }
                throw UsageError("unknown command '\(command)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "") + " (adv-harness --help lists commands)")
            }
        } catch let error as UsageError {
            output.error("adv-harness: \(error.message)")
            return 2
        } catch let error as ScenarioError {
            output.error("adv-harness: \(error)")
            return 2
        } catch {
            output.error("adv-harness: \(error)")
            return 2
        }
    }
}
