/// A DNR `RuleAction`.
public struct DNRRuleAction: Codable, Sendable, Hashable {
    /// A DNR `RuleActionType`.
    public enum Kind: String, Codable, Sendable, Hashable, CaseIterable {
        case block, redirect, allow, upgradeScheme, modifyHeaders, allowAllRequests

        /// Chromium's action rank within one priority (indexed_rule.cc, ComputeIndexedRulePriority):
        /// allow 5 > allowAllRequests 4 > block 3 > upgradeScheme 2 > redirect 1 > modifyHeaders 0.
        public var rank: Int {
            switch self {
            case .allow: 5
            case .allowAllRequests: 4
            case .block: 3
            case .upgradeScheme: 2
            case .redirect: 1
            case .modifyHeaders: 0
            }
        }
    }

    /// What the rule does.
    public var type: Kind
    /// Only for `redirect`.
    public var redirect: DNRRedirect?
    /// Only for `modifyHeaders`.
    public var requestHeaders: [DNRModifyHeaderInfo]?
    /// Only for `modifyHeaders`.
    public var responseHeaders: [DNRModifyHeaderInfo]?

    /// Creates an action.
    public init(type: Kind, redirect: DNRRedirect? = nil, requestHeaders: [DNRModifyHeaderInfo]? = nil,
                responseHeaders: [DNRModifyHeaderInfo]? = nil) {
        self.type = type
        self.redirect = redirect
        self.requestHeaders = requestHeaders
        self.responseHeaders = responseHeaders
    }
}
