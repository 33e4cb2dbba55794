/// Decides requests both ways and explains disagreements.
public struct DecisionComparator: Sendable {
    /// The DNR side.
    public let matcher: DNRMatcher
    /// The translated rules.
    public let translation: ContentBlockerTranslation
    /// The Content Blocker side.
    public let evaluator: ContentBlockerEvaluator
    private let rulesByOrigin: [String: DNRRule]

    /// Builds both sides from the same rulesets.
    /// - Throws: `InputError` if the translation produced a rule WebKit's regex subset refuses.
    public init(rulesets: [DNRRuleset]) throws {
        self.matcher = DNRMatcher(rulesets: rulesets)
        self.translation = ContentBlockerTranslator.translate(rulesets)
        self.evaluator = try ContentBlockerEvaluator(rules: translation.rules)
        var rules: [String: DNRRule] = [:]
        for ruleset in rulesets { for rule in ruleset.rules { rules["\(ruleset.id)#\(rule.id)"] = rule } }
        self.rulesByOrigin = rules
    }

    /// Compares one request.
    public func compare(_ request: DNRRequest) -> DecisionComparison {
        let dnr = matcher.decide(request)
        let cb = evaluator.decide(ContentBlockerRequest(request))
        let origins = cb.ruleIndices.map { translation.origins[$0] }
        var comparison = DecisionComparison(dnr: dnr, contentBlocker: cb, contentBlockerOrigins: origins, knownDivergence: nil)
        if !comparison.agrees {
            comparison = DecisionComparison(dnr: dnr, contentBlocker: cb, contentBlockerOrigins: origins,
                                            knownDivergence: explain(request, dnr: dnr, origins: origins))
        }
        return comparison
    }

    /// The documented reason for a disagreement, if one applies to the rules involved.
    private func explain(_ request: DNRRequest, dnr: DNRDecision, origins: [DNRMatchedRule]) -> KnownDivergence? {
        let involved = (matcher.matchingRules(request) + origins + [dnr.rule].compactMap { $0 })
            .compactMap { rulesByOrigin["\($0.rulesetID)#\($0.ruleID)"] }
        if [.object, .cspReport, .webtransport, .webbundle].contains(request.type) { return .unmappedResourceType }
        for rule in involved {
            guard let filter = rule.condition.urlFilter else { continue }
            var chromium = URLFilterPattern(filter, caseSensitive: rule.condition.isUrlFilterCaseSensitive ?? false)
            let matchesInChromium = request.url.bytes.withUnsafeBufferPointer { chromium.matches($0, host: request.url.hostRange) }
            chromium.separatorMatchesEnd = false
            let matchesWithoutEnd = request.url.bytes.withUnsafeBufferPointer { chromium.matches($0, host: request.url.hostRange) }
            if matchesInChromium && !matchesWithoutEnd { return .separatorAtEnd }
        }
        if involved.contains(where: { $0.condition.topDomains != nil || $0.condition.excludedTopDomains != nil }) {
            return .topDomainsIgnored
        }
        if involved.contains(where: { ($0.condition.requestDomains != nil && ($0.condition.urlFilter != nil || $0.condition.regexFilter != nil))
            || $0.condition.excludedRequestDomains != nil || $0.condition.domains != nil || $0.condition.excludedDomains != nil }) {
            return .requestDomainsTestMainDocument
        }
        if involved.contains(where: { $0.condition.domainType != nil || $0.condition.effectiveInitiatorDomains != nil
            || $0.condition.effectiveExcludedInitiatorDomains != nil }) {
            return .partyFromMainDocument
        }
        if request.frames.count > 1 || involved.contains(where: { $0.action.type == .allowAllRequests }) {
            if matcher.rules.contains(where: { $0.rule.action.type == .allowAllRequests }) { return .allowAllRequestsTopOnly }
        }
        return nil
    }
}
