import BlockerCore
import WebRuntime

/// A request a page makes (a subresource, a frame, a fetch, or the navigation itself).
public struct NetworkRequest: Sendable {
    /// The absolute URL.
    public var url: String
    /// The DNR resource type (WebKit's type is derived from it as WebKit does).
    public var type: DNRResourceType
    /// `GET`, `POST`...
    public var method: String
    /// The tab it belongs to (-1 for none).
    public var tabID: Int
    /// The URL of the document that made it (nil for a top-level navigation).
    public var documentURL: String?
    /// The documents it is made from, top frame first (empty: just `documentURL`). A request
    /// from an iframe names the whole chain, so that rules on the top URL and the frame URL
    /// (Content Blocker if-top-url / if-frame-url, DNR allowAllRequests) see both.
    public var frameChain: [String]
    /// The frame that made it (0: the top frame).
    public var frameID: Int
    /// Headers the page set (fetch's `headers`, XMLHttpRequest.setRequestHeader); the browser
    /// adds its own (``Browser/requestHeaders(for:)``).
    public var headers: [(name: String, value: String)]

    /// Makes a request.
    public init(url: String, type: DNRResourceType, method: String = "GET", tabID: Int, documentURL: String?,
                frameChain: [String] = [], frameID: Int = 0, headers: [(name: String, value: String)] = []) {
        self.url = url
        self.type = type
        self.method = method
        self.tabID = tabID
        self.documentURL = documentURL
        self.frameChain = frameChain
        self.frameID = frameID
        self.headers = headers
    }
}

/// The browser's decision on a request, every installed extension's rules taken together.
public struct NetworkDecision: Sendable {
    /// True when an extension's rules blocked it.
    public var blocked: Bool
    /// The deciding rule and its extension, when a rule applied.
    public var rule: DNRMatchedRule?
    /// The extension whose rule decided.
    public var extensionID: String?
    /// Where an upgrade or redirect sends the request.
    public var redirectURL: String?
    /// The request headers it goes out with after the header rules (empty when no header rule
    /// applied: the browser's own are then unchanged).
    public var requestHeaders: [(name: String, value: String)]
    /// The header rules for the response, highest-ranked first, and whose rules of precedence.
    public var responseRules: [DNROutcome.HeaderRule]
    /// Chromium's or WebKit's way of applying header rules.
    public var headerStyle: HeaderChanges.Style

    /// Nothing applied.
    public static let allowed = NetworkDecision(blocked: false, rule: nil, extensionID: nil, redirectURL: nil,
                                                requestHeaders: [], responseRules: [], headerStyle: .chromium)

    /// The response headers after the header rules.
    public func responseHeaders(_ served: [(name: String, value: String)]) -> [(name: String, value: String)] {
        HeaderChanges.apply(responseRules, to: served, request: false, style: headerStyle).headers
    }
}
