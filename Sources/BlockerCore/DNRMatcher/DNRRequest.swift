/// A network request as the DNR matcher decides it (the fields Chromium's
/// RequestParams carries, request_params.cc).
public struct DNRRequest: Sendable {
    /// The request URL.
    public var url: DNRURL
    /// Its resource type.
    public var type: DNRResourceType
    /// Its HTTP method (ignored for non-HTTP URLs, as in Chromium).
    public var method: DNRRequestMethod
    /// The initiator origin; nil for none or an opaque origin (`"null"`).
    public var initiator: DNRURL?
    /// The tab, or -1 (tabs.TAB_ID_NONE) when the request is not from a tab.
    public var tabId: Int
    /// The documents the request is made from, top frame first (for allowAllRequests,
    /// which applies to a frame's subresources and to its child frames).
    public var frames: [DNRURL]
    /// Response headers (lowercase names), when deciding at headers-received time.
    public var responseHeaders: [String: String]?

    /// Creates a request from strings.
    /// - Throws: `InputError` when a URL cannot be parsed.
    public init(url: String, type: DNRResourceType, method: DNRRequestMethod = .get, initiator: String? = nil,
                tabId: Int = -1, frames: [String] = [], responseHeaders: [String: String]? = nil) throws {
        guard let parsed = DNRURL(url) else { throw InputError(file: nil, message: "invalid url '\(url)'") }
        self.url = parsed
        self.type = type
        self.method = method
        if let initiator, initiator != "null" {
            guard let origin = DNRURL(initiator) else {
                throw InputError(file: nil, message: "invalid initiator '\(initiator)'; give an origin such as 'https://example.com' or 'null'")
            }
            self.initiator = origin
        } else {
            self.initiator = nil
        }
        self.tabId = tabId
        self.frames = try frames.map { frame in
            guard let parsed = DNRURL(frame) else { throw InputError(file: nil, message: "invalid frame url '\(frame)'") }
            return parsed
        }
        self.responseHeaders = responseHeaders
    }

    /// Creates a request from parsed parts.
    public init(url: DNRURL, type: DNRResourceType, method: DNRRequestMethod = .get, initiator: DNRURL? = nil,
                tabId: Int = -1, frames: [DNRURL] = [], responseHeaders: [String: String]? = nil) {
        self.url = url
        self.type = type
        self.method = method
        self.initiator = initiator
        self.tabId = tabId
        self.frames = frames
        self.responseHeaders = responseHeaders
    }
}
