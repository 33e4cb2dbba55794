/// Decides network requests by DNR semantics, as Chromium does
/// (extensions/browser/api/declarative_net_request/composite_matcher.cc,
/// ruleset_matcher.cc, request_action.cc), over any number of rulesets.
///
/// Rules are indexed by the host they are tied to (`||host^` filters and
/// `requestDomains`); a request looks up its host and each parent domain, and
/// only rules without such a host are checked for every request.
public final class DNRMatcher: Sendable {
    let rules: [CompiledRule]
    let index: HostSuffixIndex
    let generic: [Int32]
    let hasAllowAllRequests: Bool
    /// Base URL that `extensionPath` redirects resolve against.
    public let extensionBaseURL: String

    /// Builds the matcher. Rules are expected to be valid (see `DNRRuleValidator`);
    /// a regexFilter that does not compile never matches.
    public init(rulesets: [DNRRuleset], extensionBaseURL: String = "safari-web-extension://adv") {
        var compiled: [CompiledRule] = []
        var byHost: [String: [Int32]] = [:]
        var generic: [Int32] = []
        for ruleset in rulesets {
            for rule in ruleset.rules {
                let number = Int32(compiled.count)
                let prepared = CompiledRule(rule: rule, ruleset: ruleset)
                compiled.append(prepared)
                if let domains = rule.condition.requestDomains, !domains.isEmpty {
                    for domain in Set(domains.map { $0.lowercased() }) { byHost[domain, default: []].append(number) }
                } else if let host = prepared.pattern?.indexHost {
                    byHost[host, default: []].append(number)
                } else {
                    generic.append(number)
                }
            }
        }
        self.rules = compiled
        self.index = HostSuffixIndex(byHost)
        self.generic = generic
        self.hasAllowAllRequests = compiled.contains { $0.rule.action.type == .allowAllRequests }
        self.extensionBaseURL = extensionBaseURL
    }

    /// Decides `request`: the highest-ranked matching rule's action, or header changes, or no match.
    public func decide(_ request: DNRRequest) -> DNRDecision {
        let result = outcome(request)
        let headers = result.headerRules.map(\.rule)
        switch result.effect {
        case .none: return headers.isEmpty ? .noMatch : .modifyHeaders(headers)
        case .allow: return headers.isEmpty ? result.rule.map(DNRDecision.allow) ?? .noMatch : .modifyHeaders(headers)
        case .block: return result.rule.map(DNRDecision.block) ?? .noMatch
        case .upgrade(let url): return result.rule.map { .upgradeScheme($0, url: url) } ?? .noMatch
        case .redirect(let url): return result.rule.map { .redirect($0, url: url) } ?? .noMatch
        }
    }

    /// What the rules do to `request`: the highest-ranked matching rule's effect, and the
    /// modifyHeaders rules above a winning allow (composite_matcher.cc, GetAction then
    /// GetModifyHeadersActions with the allow's priority as the floor). A block, upgrade or
    /// redirect leaves no header changes: the request does not go out as it is.
    public func outcome(_ request: DNRRequest) -> DNROutcome {
        var best: Int32 = -1
        var headerRules: [Int32] = []
        let upgradeable = request.url.isUpgradeable
        forEachMatch(request) { number in
            let rule = rules[Int(number)]
            switch rule.rule.action.type {
            case .modifyHeaders:
                headerRules.append(number)
            case .upgradeScheme where !upgradeable:
                // Chromium only upgrades http/ftp requests (request_action.cc / IsUpgradeableUrl).
                break
            default:
                if best < 0 || rule.outranks(rules[Int(best)]) { best = number }
            }
        }
        if hasAllowAllRequests, let inherited = frameAllowAllRequests(request),
            best < 0 || rules[Int(inherited)].outranks(rules[Int(best)]) {
            best = inherited
        }
        return outcome(request, best: best, headerRules: headerRules)
    }

    /// Every rule that matches `request` (for `testMatchOutcome`-style reports), highest rank first.
    public func matchingRules(_ request: DNRRequest) -> [DNRMatchedRule] {
        var numbers: [Int32] = []
        forEachMatch(request) { numbers.append($0) }
        return Array(Set(numbers)).map { rules[Int($0)] }.sorted { $0.outranks($1) }.map(\.matched)
    }

    // MARK: - Matching

    @inline(__always)
    private func forEachMatch(_ request: DNRRequest, _ body: (Int32) -> Void) {
        request.url.bytes.withUnsafeBufferPointer { url in
            func check(_ number: Int32) {
                let rule = rules[Int(number)]
                if rule.matchesConditions(request, url: url) && rule.matchesURL(request, url: url) { body(number) }
            }
            for number in generic { check(number) }
            index.forEachMatch(url, host: request.url.hostRange, check)
        }
    }

    /// The best allowAllRequests rule matching any document the request is made from:
    /// it applies to that frame's subresources and child frames (composite_matcher.cc,
    /// GetAllowAllRequestsAction; frames are evaluated as their own navigations).
    private func frameAllowAllRequests(_ request: DNRRequest) -> Int32? {
        var best: Int32?
        var parent: DNRURL?
        for (depth, frame) in request.frames.enumerated() {
            let navigation = DNRRequest(
                url: frame, type: depth == 0 ? .mainFrame : .subFrame, initiator: parent.flatMap { DNRURL($0.origin) },
                tabId: request.tabId)
            forEachMatch(navigation) { number in
                let rule = rules[Int(number)]
                guard rule.rule.action.type == .allowAllRequests else { return }
                if best.map({ rule.outranks(rules[Int($0)]) }) ?? true { best = number }
            }
            parent = frame
        }
        return best
    }

    private func outcome(_ request: DNRRequest, best: Int32, headerRules: [Int32]) -> DNROutcome {
        let winner = best >= 0 ? rules[Int(best)] : nil
        // modifyHeaders only apply above the priority of a winning allow
        // (composite_matcher.cc, GetModifyHeadersActions with min priority).
        let floor = winner.map { $0.rule.action.type == .allow || $0.rule.action.type == .allowAllRequests ? $0.indexPriority : -1 } ?? -1
        let headers = Array(Set(headerRules)).map { rules[Int($0)] }.filter { $0.indexPriority > floor }
            .sorted { $0.outranks($1) }
            .map { DNROutcome.HeaderRule(rule: $0.matched, requestHeaders: $0.rule.action.requestHeaders ?? [],
                                         responseHeaders: $0.rule.action.responseHeaders ?? []) }
        guard let winner else { return DNROutcome(effect: .none, rule: nil, headerRules: headers) }
        switch winner.rule.action.type {
        case .allow, .allowAllRequests:
            return DNROutcome(effect: .allow, rule: winner.matched, headerRules: headers)
        case .block:
            return DNROutcome(effect: .block, rule: winner.matched, headerRules: [])
        case .upgradeScheme:
            return DNROutcome(effect: .upgrade(url: DNRRedirectTarget.upgraded(request.url)), rule: winner.matched, headerRules: [])
        case .redirect:
            guard let target = DNRRedirectTarget.resolve(winner, request: request, extensionBaseURL: extensionBaseURL) else {
                return DNROutcome(effect: .none, rule: nil, headerRules: headers)
            }
            return DNROutcome(effect: .redirect(url: target), rule: winner.matched, headerRules: [])
        case .modifyHeaders:
            return DNROutcome(effect: .none, rule: nil, headerRules: headers)
        }
    }
}
