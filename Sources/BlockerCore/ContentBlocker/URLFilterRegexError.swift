/// Why WebKit would refuse a url-filter expression.
public struct URLFilterRegexError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The expression.
    public let source: String
    /// Byte offset of the problem.
    public let offset: Int
    /// What is wrong.
    public let reason: String

    /// `url-filter '(a|b)': at offset 2: alternation '|' is not supported`
    public var description: String { "url-filter '\(source)': at offset \(offset): \(reason)" }
}
