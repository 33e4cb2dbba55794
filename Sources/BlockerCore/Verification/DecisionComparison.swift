/// One request decided by DNR semantics and by the translated Content Blocker rules.
public struct DecisionComparison: Sendable {
    /// The DNR decision (Chromium semantics).
    public let dnr: DNRDecision
    /// The Content Blocker decision (WebKit semantics).
    public let contentBlocker: ContentBlockerDecision
    /// The DNR rules behind the Content Blocker actions.
    public let contentBlockerOrigins: [DNRMatchedRule]
    /// When they disagree and the reason is a documented one.
    public let knownDivergence: KnownDivergence?

    /// Agreement means the same block and upgrade outcome.
    public var agrees: Bool {
        dnr.isBlocked == contentBlocker.isBlocked && isUpgrade(dnr) == contentBlocker.makesHTTPS
    }

    private func isUpgrade(_ decision: DNRDecision) -> Bool {
        if case .upgradeScheme = decision { return true }
        return false
    }
}
