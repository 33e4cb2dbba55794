/// One request decided by DNR semantics and by the translated Content Blocker rules.
public struct DecisionComparison: Sendable {
    /// The DNR decision (Chromium semantics).
    public let dnr: DNROutcome
    /// The raw Content Blocker decision (WebKit semantics).
    public let contentBlocker: ContentBlockerDecision
    /// What WebKit does with those actions.
    public let safari: DNROutcome
    /// The DNR rules behind the Content Blocker actions.
    public let contentBlockerOrigins: [DNRMatchedRule]
    /// When they disagree and the reason is a documented one.
    public let knownDivergence: KnownDivergence?

    /// Agreement means the same outcome for the request: blocked in both, or loaded in both at the
    /// same URL with the same request and response headers. What else matched does not matter:
    /// an upgrade queued beside a block in WebKit changes nothing.
    public var agrees: Bool { Self.same(dnr, safari) }

    static func same(_ a: DNROutcome, _ b: DNROutcome) -> Bool {
        if a.isBlocked || b.isBlocked { return a.isBlocked == b.isBlocked }
        return a.redirectURL == b.redirectURL && headers(a, .chromium) == headers(b, .webkit)
    }

    /// The request and response header changes that take effect, and the request headers they
    /// produce from an empty list.
    static func headers(_ outcome: DNROutcome, _ style: HeaderChanges.Style) -> [String] {
        let request = HeaderChanges.apply(outcome.headerRules, to: [], request: true, style: style)
        let response = HeaderChanges.apply(outcome.headerRules, to: [], request: false, style: style)
        return request.applied.map { "> \($0.change.operation.rawValue) \($0.change.header.lowercased())" }
            + request.headers.map { "> \($0.name.lowercased()): \($0.value)" }.sorted()
            + response.applied.map { "< \($0.description)" }
    }
}
