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
        let dnr = matcher.outcome(request)
        let cb = evaluator.decide(ContentBlockerRequest(request))
        let safari = cb.outcome(translation, url: request.url, extensionBaseURL: matcher.extensionBaseURL)
        let origins = cb.ruleIndices.map { translation.origins[$0] }
        let agrees = DecisionComparison.same(dnr, safari)
        return DecisionComparison(dnr: dnr, contentBlocker: cb, safari: safari, contentBlockerOrigins: origins,
                                  knownDivergence: agrees ? nil : explain(request, dnr: dnr, safari: safari, decision: cb))
    }

    /// The documented reason for a disagreement, from the rules involved: those DNR matches, those
    /// behind WebKit's actions, and the WebKit exclusion rules that matched.
    private func explain(_ request: DNRRequest, dnr: DNROutcome, safari: DNROutcome, decision: ContentBlockerDecision) -> KnownDivergence? {
        let cbRequest = ContentBlockerRequest(request)
        let exclusions = translation.exclusions.filter { evaluator.compiled[$0].matches(cbRequest) }
        let exclusionRules = exclusions.map { translation.sources[$0] }
        let origins = decision.ruleIndices.map { translation.origins[$0] }
        let involved = (matcher.matchingRules(request) + origins).compactMap { rulesByOrigin["\($0.rulesetID)#\($0.ruleID)"] }
        let unmapped: Set<DNRResourceType> = [.object, .cspReport, .webtransport, .webbundle]
        if unmapped.contains(request.type)
            || involved.contains(where: { $0.condition.resourceTypes.map { !$0.isEmpty && $0.allSatisfy(unmapped.contains) } ?? false }) {
            return .unmappedResourceType
        }
        for rule in involved {
            guard let filter = rule.condition.urlFilter else { continue }
            var chromium = URLFilterPattern(filter, caseSensitive: rule.condition.isUrlFilterCaseSensitive ?? false)
            let matchesInChromium = request.url.bytes.withUnsafeBufferPointer { chromium.matches($0, host: request.url.hostRange) }
            chromium.separatorMatchesEnd = false
            let matchesWithoutEnd = request.url.bytes.withUnsafeBufferPointer { chromium.matches($0, host: request.url.hostRange) }
            if matchesInChromium && !matchesWithoutEnd { return .separatorAtEnd }
        }
        if involved.contains(where: { c in
            let k = c.condition
            return k.topDomains != nil || k.excludedTopDomains != nil || k.tabIds != nil || k.excludedTabIds != nil
                || k.responseHeaders != nil || k.excludedResponseHeaders != nil
        }) {
            return .unreadConditionKeys
        }
        if safari.isBlocked, dnr.redirectURL != nil, decision.actions.contains(.redirect) { return .blockOutranksRedirect }
        if !dnr.isBlocked || !safari.isBlocked, !exclusionRules.isEmpty {
            let host = request.url.host
            let unanchored = exclusionRules.contains { rule in
                (rule.condition.excludedRequestDomains ?? []).contains { !Hostname.isSameOrSubdomain(host, of: $0.lowercased()) && request.url.string.lowercased().contains($0.lowercased()) }
            }
            return unanchored ? .excludedRequestDomainsUnanchored : .exclusionsEndEvaluation
        }
        if involved.contains(where: { $0.condition.requestDomains != nil }) { return .requestDomainsAsURLFilter }
        if involved.contains(where: { $0.condition.domains != nil || $0.condition.excludedDomains != nil }) { return .domainsTestMainDocument }
        if involved.contains(where: { $0.condition.domainType != nil || $0.condition.initiatorDomains != nil || $0.condition.excludedInitiatorDomains != nil }) {
            return .partyFromMainDocument
        }
        if involved.contains(where: { $0.action.type == .allowAllRequests })
            || (request.frames.count > 1 && matcher.rules.contains { $0.rule.action.type == .allowAllRequests }) {
            return .allowAllRequestsFrames
        }
        if !dnr.isBlocked, !safari.isBlocked, dnr.redirectURL != safari.redirectURL,
            involved.contains(where: { $0.action.type == .redirect || $0.action.type == .upgradeScheme }) {
            return .redirectSemantics
        }
        if !dnr.isBlocked, !safari.isBlocked, dnr.redirectURL == safari.redirectURL {
            if dnr.headerRules.contains(where: { !$0.responseHeaders.isEmpty }) { return .responseHeadersNotApplied }
            if dnr.headerRules.contains(where: { $0.requestHeaders.contains { $0.operation == .append } }) { return .headerAppendRules }
        }
        return nil
    }
}
