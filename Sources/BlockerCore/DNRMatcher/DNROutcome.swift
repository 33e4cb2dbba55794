/// What one extension's rules do to a request, whichever engine decided it: DNR semantics
/// (Chromium) or the translated Content Blocker rules (Safari). The browser model applies it:
/// a block fails the request, an upgrade or redirect sends it to another URL, header rules
/// change its request and response headers.
public struct DNROutcome: Sendable, Hashable, CustomStringConvertible {
    /// What happens to the request itself.
    public enum Effect: Sendable, Hashable {
        /// No rule decided it.
        case none
        /// An allow or allowAllRequests rule decided it: it proceeds.
        case allow
        /// It does not load.
        case block
        /// It goes to the https URL.
        case upgrade(url: String)
        /// It goes to this URL.
        case redirect(url: String)
    }

    /// A modifyHeaders rule whose changes apply, with the changes.
    public struct HeaderRule: Sendable, Hashable {
        /// The rule.
        public let rule: DNRMatchedRule
        /// Its request header changes, in order.
        public let requestHeaders: [DNRModifyHeaderInfo]
        /// Its response header changes, in order.
        public let responseHeaders: [DNRModifyHeaderInfo]

        /// Pairs a rule with its changes.
        public init(rule: DNRMatchedRule, requestHeaders: [DNRModifyHeaderInfo], responseHeaders: [DNRModifyHeaderInfo]) {
            self.rule = rule
            self.requestHeaders = requestHeaders
            self.responseHeaders = responseHeaders
        }
    }

    /// What happens to the request.
    public var effect: Effect
    /// The rule behind `effect` (nil for `.none`; nil for an allow WebKit's translation leaves no trace of).
    public var rule: DNRMatchedRule?
    /// Header rules that apply, highest-ranked first.
    public var headerRules: [HeaderRule]

    /// Nothing applies.
    public static let none = DNROutcome(effect: .none, rule: nil, headerRules: [])

    /// Creates an outcome.
    public init(effect: Effect, rule: DNRMatchedRule?, headerRules: [HeaderRule]) {
        self.effect = effect
        self.rule = rule
        self.headerRules = headerRules
    }

    /// True when the request does not load.
    public var isBlocked: Bool { effect == .block }

    /// The URL an upgrade or redirect sends the request to.
    public var redirectURL: String? {
        switch effect {
        case .upgrade(let url), .redirect(let url): url
        case .none, .allow, .block: nil
        }
    }

    /// Every rule that acted on the request (getMatchedRules, onRuleMatchedDebug): the deciding
    /// rule, then each header rule.
    public var matched: [DNRMatchedRule] { (rule.map { [$0] } ?? []) + headerRules.map(\.rule) }

    /// `block by _dynamic#3 (block, priority 1)`, `redirect to … by …; headers by …`, `no match`.
    public var description: String {
        var text: String
        switch effect {
        case .none: text = "no match"
        case .allow: text = "allow" + (rule.map { " by \($0)" } ?? "")
        case .block: text = "block" + (rule.map { " by \($0)" } ?? "")
        case .upgrade(let url): text = "upgrade to \(url)" + (rule.map { " by \($0)" } ?? "")
        case .redirect(let url): text = "redirect to \(url)" + (rule.map { " by \($0)" } ?? "")
        }
        if !headerRules.isEmpty {
            let headers = "modify headers by " + headerRules.map(\.rule.description).joined(separator: ", ")
            text = effect == .none ? headers : text + "; " + headers
        }
        return text
    }
}
