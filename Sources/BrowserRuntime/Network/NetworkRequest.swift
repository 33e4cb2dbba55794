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

    /// Makes a request.
    public init(url: String, type: DNRResourceType, method: String = "GET", tabID: Int, documentURL: String?,
                frameChain: [String] = [], frameID: Int = 0) {
        self.url = url
        self.type = type
        self.method = method
        self.tabID = tabID
        self.documentURL = documentURL
        self.frameChain = frameChain
        self.frameID = frameID
    }
}

/// The browser's decision on a request.
public struct NetworkDecision: Sendable, Equatable {
    /// True when an extension's rules blocked it.
    public var blocked: Bool
    /// The deciding rule and its extension, when a rule applied.
    public var rule: DNRMatchedRule?
    /// The extension whose rule decided.
    public var extensionID: String?

    /// Nothing applied.
    public static let allowed = NetworkDecision(blocked: false, rule: nil, extensionID: nil)
}
