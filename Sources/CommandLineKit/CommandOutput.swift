import Foundation

/// Where a command writes: the process's standard output and error (echoed as they come), and
/// always a copy of both, which tests read.
public final class CommandOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var capturedOut = ""
    private var capturedErr = ""
    private let echo: Bool

    /// True when standard output is a terminal (progress is shown then, never in CI logs).
    public let isTerminal: Bool

    /// Makes an output; `echo` also prints to the process's standard output and error.
    public init(echo: Bool = false, isTerminal: Bool = false) {
        self.echo = echo
        self.isTerminal = isTerminal
    }

    /// The process's standard output and error.
    public static func standard() -> CommandOutput {
        CommandOutput(echo: true, isTerminal: isatty(STDOUT_FILENO) != 0)
    }

    /// A capturing output and readers of what reached standard output and standard error, for tests.
    public static func buffer() -> (CommandOutput, () -> String, () -> String) {
        let output = CommandOutput()
        return (output, { output.standardOutput }, { output.standardError })
    }

    /// Everything written to standard output so far.
    public var standardOutput: String { lock.withLock { capturedOut } }
    /// Everything written to standard error so far.
    public var standardError: String { lock.withLock { capturedErr } }

    /// Writes `text` and `terminator` to standard output.
    public func out(_ text: String = "", terminator: String = "\n") {
        let chunk = text + terminator
        lock.withLock { capturedOut += chunk }
        if echo { FileHandle.standardOutput.write(Data(chunk.utf8)) }
    }

    /// Writes a line to standard error.
    public func err(_ text: String) {
        let chunk = text.hasSuffix("\n") ? text : text + "\n"
        lock.withLock { capturedErr += chunk }
        if echo { FileHandle.standardError.write(Data(chunk.utf8)) }
    }
}
