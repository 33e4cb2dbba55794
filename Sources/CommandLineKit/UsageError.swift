/// A command line that cannot run as given: reported as `<tool>: <message>` on standard error,
/// exit status 2.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    /// What was wrong and how to fix it, lowercase, naming the offending word in quotes:
    /// `unknown option '--jbos' for 'adv-harness run'; did you mean '--jobs'? (see 'adv-harness run --help')`.
    public let message: String

    /// Makes a usage error.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// The exit statuses both command lines use.
public enum ExitStatus {
    /// Everything asked for was done and every check passed.
    public static let success: Int32 = 0
    /// A check ran and found a problem (a scenario failed, a verification disagreed).
    public static let checkFailed: Int32 = 1
    /// Bad input: arguments, a file, a manifest, a rule. Nothing was written.
    public static let badInput: Int32 = 2
}
