/// How one subcommand takes its arguments; ``Arguments`` parses by it.
public struct CommandSpec: Sendable {
    /// The program (`adv-harness`), for messages.
    public let tool: String
    /// The subcommand as typed after the program (`run`, `rules merge`).
    public let command: String
    /// Options that take one value: `--out DIR` or `--out=DIR`; given twice is an error.
    public var options: Set<String>
    /// Options that take one value each time and may be given again (`--channel a --channel b`).
    public var repeatable: Set<String>
    /// Options that take every following word up to the next option (`--requests a.json b.json`).
    public var lists: Set<String>
    /// Options without a value (`--json`).
    public var flags: Set<String>
    /// How many positional words the command takes at most (nil: any number).
    public var maxPositionals: Int?
    /// The text `--help` prints.
    public let help: String

    /// Describes a subcommand.
    public init(
        tool: String, command: String, options: Set<String> = [], repeatable: Set<String> = [], lists: Set<String> = [],
        flags: Set<String> = [], maxPositionals: Int? = nil, help: String
    ) {
        self.tool = tool
        self.command = command
        self.options = options
        self.repeatable = repeatable
        self.lists = lists
        self.flags = flags
        self.maxPositionals = maxPositionals
        self.help = help
    }

    /// Every option and flag name the command knows.
    public var known: Set<String> { options.union(repeatable).union(lists).union(flags) }

    /// A usage error about this command, with the pointer to its help.
    public func error(_ message: String) -> UsageError {
        UsageError("\(message) (see '\(tool) \(command) --help')")
    }
}
