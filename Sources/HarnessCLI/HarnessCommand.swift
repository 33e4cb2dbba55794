import ADVHarnessSupport
import BrowserRuntime
import CommandLineKit
import Foundation
import RuntimeBench
import ScenarioKit
import Suggestion
import WebRuntime

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
      serve [--port N]          serve the fixture pages on 127.0.0.1, to compare with Safari by hand
      probe CASES.json          run a fidelity case file and print or compare its probes' values
      test EXTENSION_DIR...     run extensions' own tests, written with browser.test
      help [COMMAND]            show help for a command

    'adv-harness <command> --help' shows a command's options.
    """

    static let commands = ["run", "trace", "list", "bench", "demo", "serve", "probe", "test", "help"]

    /// Runs the command line `arguments` (without the program name).
    /// - Returns: the process exit code.
    /// Ends the process with `status`. While a worker thread abandoned by the run's supervisor
    /// still runs JavaScript, exit handlers and static destructors would race it (or wait on
    /// its engine forever), so the process then ends at once, after flushing its output.
    public static func exit(_ status: Int32) -> Never {
        fflush(stdout)
        fflush(stderr)
        if SuiteRun.abandonedWorkers > 0 { _exit(status) }
        Foundation.exit(status)
    }

    public static func run(_ arguments: [String], output: CommandOutput = .standard()) -> Int32 {
        ADVHarnessSupport.register()
        guard let command = arguments.first else {
            output.err(usage)
            return ExitStatus.badInput
        }
        let rest = Array(arguments.dropFirst())
        do {
            switch command {
            case "run": return try RunCommand.run(rest, output: output)
            case "trace": return try TraceCommand.run(rest, output: output)
            case "list": return try ListCommand.run(rest, output: output)
            case "demo": return try DemoCommand.run(rest, output: output)
            case "bench": return try BenchCommand.run(rest, output: output)
            case "serve": return try ServeCommand.run(rest, output: output)
            case "probe": return try ProbeCommand.run(rest, output: output)
            case "test": return try TestCommand.run(rest, output: output)
            case "help", "--help", "-h":
                if let topic = rest.first { return run([topic, "--help"], output: output) }
                output.out(usage)
                return ExitStatus.success
            default:
                let hint = Suggestion.hint(for: command, in: commands)
                throw UsageError("unknown command '\(command)'\(hint) (adv-harness --help lists commands)")
            }
        } catch {
            // Usage errors, scenario and manifest errors, catalog errors: all bad input.
            output.err("adv-harness: \(error)")
            return ExitStatus.badInput
        }
    }
}
