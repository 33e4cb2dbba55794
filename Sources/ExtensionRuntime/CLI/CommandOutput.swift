import Foundation

/// Where a command writes: standard output and error, or buffers in tests.
public final class CommandOutput {
    private let writeOut: (String) -> Void
    private let writeErr: (String) -> Void

    /// Writes to the process's standard output and error.
    public static func standard() -> CommandOutput {
        let output = CommandOutput(
            out: { FileHandle.standardOutput.write(Data($0.utf8)) },
            err: { FileHandle.standardError.write(Data($0.utf8)) })
        output.isTerminal = isatty(STDOUT_FILENO) != 0
        return output
    }

    /// True when standard output is a terminal (progress is shown then, never in CI logs).
    public private(set) var isTerminal = false

    /// Collects everything written, for tests.
    public static func buffer() -> (CommandOutput, () -> String, () -> String) {
        var out = ""
        var err = ""
        let output = CommandOutput(out: { out += $0 }, err: { err += $0 })
        return (output, { out }, { err })
    }

    /// Makes an output from two writers.
    public init(out: @escaping (String) -> Void, err: @escaping (String) -> Void) {
        writeOut = out
        writeErr = err
    }

    /// Writes a line to standard output.
    public func line(_ text: String = "") { writeOut(text + "\n") }
    /// Writes a line to standard error.
    public func error(_ text: String) { writeErr(text + "\n") }
}

/// A command-line usage error: reported as `adv-harness: <message>` with exit code 2.
public struct UsageError: Error, CustomStringConvertible {
    /// What was wrong and how to fix it.
    public let message: String
    /// Makes a usage error.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Minimal argument reader: flags with values, boolean flags, positionals, and an error for
/// anything unknown.
struct ArgumentReader {
    private var remaining: [String]
    private(set) var positionals: [String] = []

    init(_ arguments: [String]) { remaining = arguments }

    /// Parses `remaining` against the allowed flags; unknown `--flags` are errors.
    /// Values of repeatable flags (`--channel a --channel b`), in order.
    private(set) var repeated: [String: [String]] = [:]

    mutating func parse(valueFlags: Set<String>, boolFlags: Set<String>, repeatableFlags: Set<String> = [], command: String) throws -> [String: String] {
        let valueFlags = valueFlags.union(repeatableFlags)
        var values: [String: String] = [:]
        while !remaining.isEmpty {
            let argument = remaining.removeFirst()
            if argument == "--" { positionals += remaining; remaining = []; break }
            if argument.hasPrefix("--") || (argument.hasPrefix("-") && argument.count > 1 && argument != "-") {
                var name = argument
                var inlineValue: String?
                if let equals = argument.firstIndex(of: "=") {
                    name = String(argument[..<equals])
                    inlineValue = String(argument[argument.index(after: equals)...])
                }
                if boolFlags.contains(name) {
                    guard inlineValue == nil else { throw UsageError("flag '\(name)' takes no value") }
                    values[name] = "true"
                } else if valueFlags.contains(name) {
                    var value: String
                    if let inlineValue { value = inlineValue } else {
                        guard !remaining.isEmpty else { throw UsageError("flag '\(name)' needs a value") }
                        value = remaining.removeFirst()
                    }
                    values[name] = value
                    if repeatableFlags.contains(name) { repeated[name, default: []].append(value) }
                } else {
                    let known = (valueFlags.union(boolFlags)).sorted().joined(separator: ", ")
                    throw UsageError("unknown flag '\(name)' for '\(command)'" + (known.isEmpty ? "" : " (known: \(known))") + "; see 'adv-harness \(command) --help'")
                }
            } else {
                positionals.append(argument)
            }
        }
        return values
    }
}
