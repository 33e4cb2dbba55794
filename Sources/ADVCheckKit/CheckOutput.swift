/// Where a command's text goes; the executable prints, tests collect.
public final class CheckOutput: @unchecked Sendable {
    /// Lines written to standard output.
    public private(set) var standardOutput = ""
    /// Lines written to standard error.
    public private(set) var standardError = ""
    private let echo: Bool

    /// Creates an output; `echo` also prints as it goes (the CLI).
    public init(echo: Bool = false) {
        self.echo = echo
    }

    /// Writes to standard output.
    public func out(_ text: String, terminator: String = "\n") {
        standardOutput += text + terminator
        if echo { print(text, terminator: terminator) }
    }

    /// Writes to standard error.
    public func err(_ text: String) {
        standardError += text + "\n"
        if echo { FileHandleWriter.standardError(text + "\n") }
    }
}
