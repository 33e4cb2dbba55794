/// A Content Blocker trigger.
public struct ContentBlockerTrigger: Codable, Sendable, Hashable {
    /// Regular expression (WebKit's subset) matched against the resource URL. Required.
    public var urlFilter: String
    /// Default false.
    public var urlFilterIsCaseSensitive: Bool?
    /// Resource types; absent or empty means all (WebKit's parser leaves no type flag either way).
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
    /// The request's HTTP method, lowercase (`get`, `post`...); absent means any.
    public var requestMethod: String?

    /// Creates a trigger.
    public init(urlFilter: String, urlFilterIsCaseSensitive: Bool? = nil, resourceType: [ContentBlockerResourceType]? = nil,
                loadType: [ContentBlockerLoadType]? = nil, loadContext: [ContentBlockerLoadContext]? = nil,
                ifDomain: [String]? = nil, unlessDomain: [String]? = nil, ifTopURL: [String]? = nil,
                unlessTopURL: [String]? = nil, ifFrameURL: [String]? = nil, unlessFrameURL: [String]? = nil,
                requestMethod: String? = nil) {
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
        self.requestMethod = requestMethod
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
        case requestMethod = "request-method"
    }
}
