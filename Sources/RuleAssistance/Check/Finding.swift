/// A personal filter as the checker sees it: no store, just identity, scope and selector.
public struct CheckedRule: Equatable, Sendable {
    public let id: String
    /// The exact hostname the filter applies to.
    public let hostname: String
    public let selector: String

    /// A rule to check.
    public init(id: String, hostname: String, selector: String) {
        self.id = id
        self.hostname = hostname
        self.selector = selector
    }
}

/// How one rule's matched elements relate to another's on the page.
public enum Overlap: String, Equatable, Sendable {
    /// Both match exactly the same elements.
    case sameElements = "same-elements"
    /// This rule matches every element the other does, and more.
    case contains
    /// Every element this rule matches is matched by the other, which matches more.
    case containedIn = "contained-in"
}

/// One thing "Check existing filters" reports about a rule.
public struct Finding: Equatable, Sendable {
    /// What kind of finding; the raw values are the shared table's names.
    public enum Kind: String, CaseIterable, Equatable, Sendable {
        case invalidSyntax = "invalid-syntax"
        case duplicate
        case likelyGenerated = "likely-generated"
        case positional
        case noMatches = "no-matches"
        case overlap
    }

    /// Said of every page-based finding: what one page shows is not the whole site.
    public static let pageCaveat = "One page does not prove global redundancy: other pages of the site, or content that loads later, may differ."

    public let kind: Kind
    /// The rule the finding is about.
    public let rule: CheckedRule
    /// The other rule of a duplicate or an overlap.
    public let other: CheckedRule?
    /// For an overlap: how `rule`'s elements relate to `other`'s.
    public let relation: Overlap?
    /// For likely-generated: the token that looks generated; for positional: `nth-chain`,
    /// `fixed-position` or `child-chain`.
    public let detail: String?
    /// A plain-English explanation naming the rule (id and hostname); page-based ones end with ``pageCaveat``.
    public let message: String

    /// Whether the finding comes from one page (no matches, overlap).
    public var isPageBased: Bool { kind == .noMatches || kind == .overlap }
}

/// Why a check cannot run.
public enum RuleCheckError: Error, Equatable, Sendable, CustomStringConvertible {
    /// More rules than ``RuleCheck/maxRules``.
    case tooManyRules(count: Int)

    public var description: String {
        switch self {
        case .tooManyRules(let count):
            return "\(count) rules given; a check takes at most \(RuleCheck.maxRules) rules at a time (check one hostname, or fewer rules)"
        }
    }
}
