/// A DNR `HeaderInfo`: a response-header condition (`responseHeaders` / `excludedResponseHeaders`).
public struct DNRHeaderInfo: Codable, Sendable, Hashable {
    /// The header name.
    public var header: String
    /// Match when the header's value matches one of these (`*` wildcards).
    public var values: [String]?
    /// Do not match when the header's value matches one of these.
    public var excludedValues: [String]?

    /// Creates a header condition.
    public init(header: String, values: [String]? = nil, excludedValues: [String]? = nil) {
        self.header = header
        self.values = values
        self.excludedValues = excludedValues
    }
}
