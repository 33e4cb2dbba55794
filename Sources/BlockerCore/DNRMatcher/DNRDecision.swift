/// What DNR does with a request.
public enum DNRDecision: Sendable, Hashable, CustomStringConvertible {
    /// No rule matched: the request proceeds.
    case noMatch
    /// An allow or allowAllRequests rule won: the request proceeds.
    case allow(DNRMatchedRule)
    /// A block rule won.
    case block(DNRMatchedRule)
    /// An upgradeScheme rule won; the request goes to `url` (https).
    case upgradeScheme(DNRMatchedRule, url: String)
    /// A redirect rule won; the request goes to `url`.
    case redirect(DNRMatchedRule, url: String)
    /// The request proceeds with these header changes (highest priority first).
    case modifyHeaders([DNRMatchedRule])

    /// True when the request does not load.
    public var isBlocked: Bool {
        if case .block = self { return true }
        return false
    }

    /// The deciding rule, if one rule decided.
    public var rule: DNRMatchedRule? {
        switch self {
        case .noMatch, .modifyHeaders: nil
        case .allow(let rule), .block(let rule), .upgradeScheme(let rule, _), .redirect(let rule, _): rule
        }
    }

    /// `block by adv_builtin#1 (block, priority 1)`, `no match`, ...
    public var description: String {
        switch self {
        case .noMatch: "no match"
        case .allow(let rule): "allow by \(rule)"
        case .block(let rule): "block by \(rule)"
        case .upgradeScheme(let rule, let url): "upgrade to \(url) by \(rule)"
        case .redirect(let rule, let url): "redirect to \(url) by \(rule)"
        case .modifyHeaders(let rules): "modify headers by " + rules.map(\.description).joined(separator: ", ")
        }
    }
}
