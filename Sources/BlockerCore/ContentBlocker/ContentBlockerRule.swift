/// A WebKit Content Blocker rule: a trigger and an action
/// (Apple, "Creating a content blocker"; WebCore/contentextensions/ContentExtensionParser.cpp).
public struct ContentBlockerRule: Codable, Sendable, Hashable {
    /// When the rule applies.
    public var trigger: ContentBlockerTrigger
    /// What it does.
    public var action: ContentBlockerAction

    /// Creates a rule.
    public init(trigger: ContentBlockerTrigger, action: ContentBlockerAction) {
        self.trigger = trigger
        self.action = action
    }
}

/// A Content Blocker `resource-type` value.
public enum ContentBlockerResourceType: String, Codable, Sendable, Hashable, CaseIterable {
    case document, image, font, raw, media, popup, ping, fetch, websocket, other
    case styleSheet = "style-sheet"
    case script
    case svgDocument = "svg-document"
    case cspReport = "csp-report"
    case topDocument = "top-document"
    case childDocument = "child-document"
}

/// A Content Blocker `load-type` value: relative to the main document.
public enum ContentBlockerLoadType: String, Codable, Sendable, Hashable {
    case firstParty = "first-party"
    case thirdParty = "third-party"
}

/// A Content Blocker `load-context` value: which frame the load happens in.
public enum ContentBlockerLoadContext: String, Codable, Sendable, Hashable {
    case topFrame = "top-frame"
    case childFrame = "child-frame"
}

/// A Content Blocker trigger.
public struct ContentBlockerTrigger: Codable, Sendable, Hashable {
    /// Regular expression (WebKit's subset) matched against the resource URL. Required.
    public var urlFilter: String
    /// Default false.
    public var urlFilterIsCaseSensitive: Bool?
    /// Resource types; absent means all.
    public var resourceType: [ContentBlockerResourceType]?
    /// First- or third-party to the main document; absent means both.
    public var loadType: [ContentBlockerLoadType]?
    /// Top or child frame; absent means both.
    public var loadContext: [ContentBlockerLoadContext]?
    /// Main document host must be one of these (`*` prefix: and subdomains).
    public var ifDomain: [String]?
    /// Main document host must not be one of these.
    public var unlessDomain: [String]?
    /// Main document URL must match one of these regexes.
    public var ifTopURL: [String]?
    /// Main document URL must match none of these regexes.
    public var unlessTopURL: [String]?
    /// The loading frame's URL must match one of these regexes.
    public var ifFrameURL: [String]?
    /// The loading frame's URL must match none of these regexes.
    public var unlessFrameURL: [String]?

    /// Creates a trigger.
    public init(urlFilter: String, urlFilterIsCaseSensitive: Bool? = nil, resourceType: [ContentBlockerResourceType]? = nil,
                loadType: [ContentBlockerLoadType]? = nil, loadContext: [ContentBlockerLoadContext]? = nil,
                ifDomain: [String]? = nil, unlessDomain: [String]? = nil, ifTopURL: [String]? = nil,
                unlessTopURL: [String]? = nil, ifFrameURL: [String]? = nil, unlessFrameURL: [String]? = nil) {
        self.urlFilter = urlFilter
        self.urlFilterIsCaseSensitive = urlFilterIsCaseSensitive
        self.resourceType = resourceType
        self.loadType = loadType
        self.loadContext = loadContext
        self.ifDomain = ifDomain
        self.unlessDomain = unlessDomain
        self.ifTopURL = ifTopURL
        self.unlessTopURL = unlessTopURL
        self.ifFrameURL = ifFrameURL
        self.unlessFrameURL = unlessFrameURL
    }

    enum CodingKeys: String, CodingKey {
        case urlFilter = "url-filter"
        case urlFilterIsCaseSensitive = "url-filter-is-case-sensitive"
        case resourceType = "resource-type"
        case loadType = "load-type"
        case loadContext = "load-context"
        case ifDomain = "if-domain"
        case unlessDomain = "unless-domain"
        case ifTopURL = "if-top-url"
        case unlessTopURL = "unless-top-url"
        case ifFrameURL = "if-frame-url"
        case unlessFrameURL = "unless-frame-url"
    }
}

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
