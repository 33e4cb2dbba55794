/// A DNR `Redirect`: where a `redirect` action sends the request.
public struct DNRRedirect: Codable, Sendable, Hashable {
    /// Path relative to the extension directory, starting with `/`.
    public var extensionPath: String?
    /// URL changes to apply.
    public var transform: URLTransform?
    /// An absolute URL (not `javascript:`).
    public var url: String?
    /// Substitution for `regexFilter` rules; `\0`-`\9` insert capture groups.
    public var regexSubstitution: String?

    /// Creates a redirect; give exactly one of the members.
    public init(extensionPath: String? = nil, transform: URLTransform? = nil, url: String? = nil, regexSubstitution: String? = nil) {
        self.extensionPath = extensionPath
        self.transform = transform
        self.url = url
        self.regexSubstitution = regexSubstitution
    }

    /// A DNR `URLTransform`.
    public struct URLTransform: Codable, Sendable, Hashable {
        /// New scheme: http, https, ftp or chrome-extension.
        public var scheme: String?
        /// New host.
        public var host: String?
        /// New port; empty string removes it.
        public var port: String?
        /// New path; empty string clears it.
        public var path: String?
        /// New query starting with `?`; empty string clears it.
        public var query: String?
        /// Query changes (exclusive with `query`).
        public var queryTransform: QueryTransform?
        /// New fragment starting with `#`; empty string clears it.
        public var fragment: String?
        /// New user name.
        public var username: String?
        /// New password.
        public var password: String?

        /// Creates a transform.
        public init(scheme: String? = nil, host: String? = nil, port: String? = nil, path: String? = nil, query: String? = nil,
                    queryTransform: QueryTransform? = nil, fragment: String? = nil, username: String? = nil, password: String? = nil) {
            self.scheme = scheme
            self.host = host
            self.port = port
            self.path = path
            self.query = query
            self.queryTransform = queryTransform
            self.fragment = fragment
            self.username = username
            self.password = password
        }
    }

    /// A DNR `QueryTransform`.
    public struct QueryTransform: Codable, Sendable, Hashable {
        /// Query keys to remove.
        public var removeParams: [String]?
        /// Keys to add or replace.
        public var addOrReplaceParams: [QueryKeyValue]?

        /// Creates a query transform.
        public init(removeParams: [String]? = nil, addOrReplaceParams: [QueryKeyValue]? = nil) {
            self.removeParams = removeParams
            self.addOrReplaceParams = addOrReplaceParams
        }
    }

    /// A DNR `QueryKeyValue`.
    public struct QueryKeyValue: Codable, Sendable, Hashable {
        /// The key.
        public var key: String
        /// The value.
        public var value: String
        /// Only replace an existing key, never add one.
        public var replaceOnly: Bool?

        /// Creates a key-value change.
        public init(key: String, value: String, replaceOnly: Bool? = nil) {
            self.key = key
            self.value = value
            self.replaceOnly = replaceOnly
        }
    }
}
