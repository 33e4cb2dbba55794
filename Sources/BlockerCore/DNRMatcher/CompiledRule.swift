import Foundation

/// A DNR rule prepared for matching: masks instead of lists, byte domains, compiled pattern.
struct CompiledRule: Sendable {
    /// A domain list entry: the domain bytes and whether it includes or excludes.
    struct DomainEntry: Sendable {
        let domain: [UInt8]
        let include: Bool
    }

    let rule: DNRRule
    let matched: DNRMatchedRule
    /// (priority << 8) | rank, as Chromium's indexed priority (indexed_rule.cc).
    let indexPriority: Int
    let rulesetTieBreak: Int
    let pattern: URLFilterPattern?
    let regex: RegexBox?
    let resourceTypes: UInt32
    /// nil when every method matches (and non-HTTP requests too).
    let methods: UInt16?
    let initiatorDomains: [DomainEntry]?
    let initiatorHasIncludes: Bool
    let requestDomains: [DomainEntry]?
    let requestHasIncludes: Bool
    let topDomains: [DomainEntry]?
    let topHasIncludes: Bool
    let domainType: DNRDomainType?
    let tabIds: Set<Int>?
    let excludedTabIds: Set<Int>?

    init(rule: DNRRule, ruleset: DNRRuleset) {
        let c = rule.condition
        self.rule = rule
        self.matched = DNRMatchedRule(rulesetID: ruleset.id, ruleID: rule.id, action: rule.action.type, priority: rule.effectivePriority)
        self.indexPriority = (rule.effectivePriority << 8) | rule.action.type.rank
        self.rulesetTieBreak = ruleset.source.tieBreakID
        let caseSensitive = c.isUrlFilterCaseSensitive ?? false
        self.pattern = c.urlFilter.map { URLFilterPattern($0, caseSensitive: caseSensitive) }
        self.regex = c.regexFilter.flatMap { DNRRegexFilter.compile($0, caseSensitive: caseSensitive) }.map(RegexBox.init)
        if let included = c.resourceTypes {
            self.resourceTypes = included.reduce(0) { $0 | $1.bit }
        } else if let excluded = c.excludedResourceTypes {
            self.resourceTypes = DNRResourceType.allMask & ~excluded.reduce(0) { $0 | $1.bit }
        } else {
            self.resourceTypes = DNRResourceType.defaultMask
        }
        if let included = c.requestMethods {
            self.methods = included.reduce(0) { $0 | $1.bit }
        } else if let excluded = c.excludedRequestMethods {
            self.methods = DNRRequestMethod.allMask & ~excluded.reduce(0) { $0 | $1.bit }
        } else {
            self.methods = nil
        }
        (self.initiatorDomains, self.initiatorHasIncludes) = Self.entries(c.effectiveInitiatorDomains, c.effectiveExcludedInitiatorDomains)
        (self.requestDomains, self.requestHasIncludes) = Self.entries(c.requestDomains, c.excludedRequestDomains)
        (self.topDomains, self.topHasIncludes) = Self.entries(c.topDomains, c.excludedTopDomains)
        self.domainType = c.domainType
        self.tabIds = c.tabIds.map(Set.init)
        self.excludedTabIds = c.excludedTabIds.map(Set.init)
    }

    private static func entries(_ include: [String]?, _ exclude: [String]?) -> ([DomainEntry]?, Bool) {
        if include == nil && exclude == nil { return (nil, false) }
        let list = (include ?? []).map { DomainEntry(domain: Array($0.lowercased().utf8), include: true) }
            + (exclude ?? []).map { DomainEntry(domain: Array($0.lowercased().utf8), include: false) }
        return (list, include != nil)
    }

    /// Chromium's tie order: index priority, then ruleset id, then rule id (request_action.cc operator<).
    func outranks(_ other: CompiledRule) -> Bool {
        if indexPriority != other.indexPriority { return indexPriority > other.indexPriority }
        if rulesetTieBreak != other.rulesetTieBreak { return rulesetTieBreak > other.rulesetTieBreak }
        return rule.id > other.rule.id
    }
}
