/// A DNR `RuleCondition` with every key of Chromium's IDL
/// (extensions/common/api/declarative_net_request.idl).
public struct DNRRuleCondition: Codable, Sendable, Hashable {
    /// Chromium's url pattern (`|`, `||`, `*`, `^`); absent matches every URL.
    public var urlFilter: String?
    /// An RE2 regular expression; exclusive with `urlFilter`.
    public var regexFilter: String?
    /// Default false.
    public var isUrlFilterCaseSensitive: Bool?
    /// Initiator must be one of these domains (or a subdomain).
    public var initiatorDomains: [String]?
    /// Initiator must not be one of these domains.
    public var excludedInitiatorDomains: [String]?
    /// Request host must be one of these domains (or a subdomain).
    public var requestDomains: [String]?
    /// Request host must not be one of these domains.
    public var excludedRequestDomains: [String]?
    /// The top-level frame's host must be one of these domains (Chrome 145+).
    public var topDomains: [String]?
    /// The top-level frame's host must not be one of these domains (Chrome 145+).
    public var excludedTopDomains: [String]?
    /// Deprecated spelling of `initiatorDomains`.
    public var domains: [String]?
    /// Deprecated spelling of `excludedInitiatorDomains`.
    public var excludedDomains: [String]?
    /// Types the rule applies to; default all but main_frame.
    public var resourceTypes: [DNRResourceType]?
    /// Types the rule never applies to.
    public var excludedResourceTypes: [DNRResourceType]?
    /// Methods the rule applies to (also excludes non-HTTP requests).
    public var requestMethods: [DNRRequestMethod]?
    /// Methods the rule never applies to.
    public var excludedRequestMethods: [DNRRequestMethod]?
    /// First- or third-party to the initiator.
    public var domainType: DNRDomainType?
    /// Session rules only: tabs the rule applies to.
    public var tabIds: [Int]?
    /// Session rules only: tabs the rule never applies to.
    public var excludedTabIds: [Int]?
    /// Response-header conditions (matched when headers are known).
    public var responseHeaders: [DNRHeaderInfo]?
    /// Response-header exclusions.
    public var excludedResponseHeaders: [DNRHeaderInfo]?

    /// Creates a condition; every key is optional, as in the IDL.
    public init(urlFilter: String? = nil, regexFilter: String? = nil, isUrlFilterCaseSensitive: Bool? = nil,
                initiatorDomains: [String]? = nil, excludedInitiatorDomains: [String]? = nil,
                requestDomains: [String]? = nil, excludedRequestDomains: [String]? = nil,
                domains: [String]? = nil, excludedDomains: [String]? = nil,
                resourceTypes: [DNRResourceType]? = nil, excludedResourceTypes: [DNRResourceType]? = nil,
                requestMethods: [DNRRequestMethod]? = nil, excludedRequestMethods: [DNRRequestMethod]? = nil,
                domainType: DNRDomainType? = nil, tabIds: [Int]? = nil, excludedTabIds: [Int]? = nil,
                responseHeaders: [DNRHeaderInfo]? = nil, excludedResponseHeaders: [DNRHeaderInfo]? = nil,
                topDomains: [String]? = nil, excludedTopDomains: [String]? = nil) {
        self.urlFilter = urlFilter
        self.regexFilter = regexFilter
        self.isUrlFilterCaseSensitive = isUrlFilterCaseSensitive
        self.initiatorDomains = initiatorDomains
        self.excludedInitiatorDomains = excludedInitiatorDomains
        self.requestDomains = requestDomains
        self.excludedRequestDomains = excludedRequestDomains
        self.domains = domains
        self.excludedDomains = excludedDomains
        self.resourceTypes = resourceTypes
        self.excludedResourceTypes = excludedResourceTypes
        self.requestMethods = requestMethods
        self.excludedRequestMethods = excludedRequestMethods
        self.domainType = domainType
        self.tabIds = tabIds
        self.excludedTabIds = excludedTabIds
        self.responseHeaders = responseHeaders
        self.excludedResponseHeaders = excludedResponseHeaders
        self.topDomains = topDomains
        self.excludedTopDomains = excludedTopDomains
    }

    /// Initiator domains, whichever spelling was used (validation refuses both at once).
    var effectiveInitiatorDomains: [String]? { initiatorDomains ?? domains }
    /// Excluded initiator domains, whichever spelling was used.
    var effectiveExcludedInitiatorDomains: [String]? { excludedInitiatorDomains ?? excludedDomains }
}
