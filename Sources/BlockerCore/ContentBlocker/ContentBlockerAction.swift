/// A Content Blocker action.
public struct ContentBlockerAction: Codable, Sendable, Hashable {
    /// A Content Blocker action `type`.
    public enum Kind: String, Codable, Sendable, Hashable {
        case block
        case blockCookies = "block-cookies"
        case cssDisplayNone = "css-display-none"
        case ignorePreviousRules = "ignore-previous-rules"
        case ignoreFollowingRules = "ignore-following-rules"
        case makeHTTPS = "make-https"
        case notify
        case redirect
        case modifyHeaders = "modify-headers"
    }

    /// What to do.
    public var type: Kind
    /// Selector list for css-display-none.
    public var selector: String?
    /// Redirect description (passed through from DNR, WebKit's spelling).
    public var redirect: JSONValue?
    /// Request header changes for modify-headers.
    public var requestHeaders: JSONValue?
    /// Response header changes for modify-headers.
    public var responseHeaders: JSONValue?
    /// DNR priority carried by modify-headers.
    public var priority: Int?

    /// Creates an action.
    public init(type: Kind, selector: String? = nil, redirect: JSONValue? = nil, requestHeaders: JSONValue? = nil,
                responseHeaders: JSONValue? = nil, priority: Int? = nil) {
        self.type = type
        self.selector = selector
        self.redirect = redirect
        self.requestHeaders = requestHeaders
        self.responseHeaders = responseHeaders
        self.priority = priority
    }

    enum CodingKeys: String, CodingKey {
        case type, selector, redirect, priority
        case requestHeaders = "request-headers"
        case responseHeaders = "response-headers"
    }
}
