import Foundation

/// `adv-check rules show|merge|validate|bench`: inspect and combine personal-rule files.
///
/// All logic lives here so tests can call it; the executable only forwards its
/// arguments and exits with the returned status (0 success, 2 bad input or usage,
/// 1 a failure writing the output).
public enum RulesCommand {
    /// Output sinks, so tests can capture what a run prints.
    public struct Output {
        /// Standard output.
        public var out: (String) -> Void
        /// Standard error.
        public var err: (String) -> Void

        /// Sinks writing to the given closures.
        public init(out: @escaping (String) -> Void, err: @escaping (String) -> Void) {
            self.out = out
            self.err = err
        }
    }

    static let usage = """
        usage: adv-check rules <subcommand> [options] FILE...

        subcommands:
          show FILE...                  print each file's rules by hostname, deletion markers and findings
          validate FILE...              check files and print one line each; exit 2 if any is invalid
          merge FILE... [--output OUT]  merge files by id and latest modification; print the result or write OUT
          bench [--runs N]              time a 5,000-record merge and encode/decode round trip

        files use the personal-rules-v1 format (fixtures/rules/README.md).
        run 'adv-check rules <subcommand> --help' for details.
        """

    /// Runs the command with the arguments that follow `rules`.
    /// - Returns: The exit status.
    public static func run(arguments: [String], output: Output) -> Int32 {
        guard let subcommand = arguments.first else {
            output.err(usage + "\n")
            return 2
        }
        let rest = Array(arguments.dropFirst())
        switch subcommand {
        case "-h", "--help", "help":
            output.out(usage + "\n")
            return 0
        case "show": return show(rest, output)
        case "validate": return validate(rest, output)
        case "merge": return merge(rest, output)
        case "bench": return bench(rest, output)
        default:
            output.err("adv-check rules: unknown subcommand '\(subcommand)'; use show, validate, merge or bench (adv-check rules --help)\n")
            return 2
        }
    }

    /// Runs with the process's standard output and error.
    public static func run(arguments: [String]) -> Int32 {
        run(arguments: arguments, output: Output(
            out: { FileHandle.standardOutput.write(Data($0.utf8)) },
            err: { FileHandle.standardError.write(Data($0.utf8)) }))
    }

    /// Splits `arguments` into files and `--name value` options, refusing unknown flags.
    static func parse(
        _ arguments: [String], subcommand: String, options: Set<String>
    ) -> Result<(files: [String], options: [String: String]), UsageError> {
        var files: [String] = []
        var values: [String: String] = [:]
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "-h" || argument == "--help" { return .failure(.help) }
            if argument.hasPrefix("--") {
                guard options.contains(argument) else {
                    return .failure(.message("unknown option '\(argument)' for 'rules \(subcommand)' (adv-check rules \(subcommand) --help)"))
                }
                guard index + 1 < arguments.count else {
                    return .failure(.message("option '\(argument)' needs a value"))
                }
                values[argument] = arguments[index + 1]
                index += 2
            } else {
                files.append(argument)
                index += 1
            }
        }
        return .success((files, values))
    }

    /// Why argument parsing stopped.
    enum UsageError: Error {
        case help
        case message(String)
    }

    /// Reads and validates every file before anything is printed or written.
    static func load(_ paths: [String]) -> Result<[(path: String, data: Data, document: RuleDocument)], RuleStoreError> {
        var loaded: [(String, Data, RuleDocument)] = []
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else {
                let code: Int32 = FileManager.default.fileExists(atPath: path) ? EACCES : ENOENT
                return .failure(.fileSystem(path: path, operation: "read", code: code))
            }
            do {
                loaded.append((path, data, try RuleCodec.decode(data, file: path)))
            } catch {
                return .failure(error)
            }
        }
        return .success(loaded)
    }
}
