/// A hostname that `Hostname.normalize(_:)` refused, with the reason in plain words.
public struct HostnameError: Error, Equatable, CustomStringConvertible {
    /// The text exactly as it was given.
    public let input: String
    /// Why it was refused, lowercase, saying how to fix it where that helps.
    public let reason: String

    /// Creates an error for `input` refused for `reason`.
    public init(input: String, reason: String) {
        self.input = input
        self.reason = reason
    }

    /// `invalid hostname 'http://x.com': contains a scheme; ...`
    public var description: String { "invalid hostname '\(input)': \(reason)" }
}
