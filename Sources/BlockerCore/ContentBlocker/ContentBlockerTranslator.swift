/// Translates DNR rules to WebKit Content Blocker rules the way Safari's own translator does:
/// WebKit's Source/WebKit/UIProcess/Extensions/Cocoa/_WKWebExtensionDeclarativeNetRequestRule.mm
/// (`ruleInWebKitFormat`, `_convertRulesWithModifiedCondition`, `_webKitRuleWithWebKitActionType`,
/// `_combineRequestDomain`) and _WKWebExtensionDeclarativeNetRequestTranslator.mm
/// (`translateRules`), in the revision that has request methods and `onRuleMatchedDebug`:
///
/// - all of an extension's rules form one list, sorted by descending priority, then descending
///   action rank (allow, allowAllRequests, block, upgradeScheme, redirect, modifyHeaders:
///   `-compare:`); allow and allowAllRequests become `ignore-following-rules`, which drops every
///   rule after it in the list, so a higher-ranked allow overrides what follows;
/// - upgradeScheme becomes `make-https` followed by an `ignore-following-rules` twin;
/// - main_frame and sub_frame become `top-document` and `child-document`; other types map one to
///   one; object, csp_report, webtransport and webbundle have no mapping and are dropped, which
///   leaves an empty `resource-type` (every type) when nothing else was listed;
/// - `requestDomains` (without a regexFilter, which makes WebKit ignore them) become one rule per
///   domain whose urlFilter is the domain spliced into the rule's urlFilter (`||domain` alone);
/// - each `excludedRequestDomains` entry becomes a preceding `ignore-following-rules` rule whose
///   urlFilter is the bare domain, matched anywhere in the URL; each `excludedRequestMethods`
///   entry likewise; `requestMethods` become one rule per method with `request-method`;
/// - `domains`/`excludedDomains` (the deprecated initiator spellings) become `if-domain` /
///   `unless-domain`, which WebKit tests against the main document; initiator domains become
///   `if-frame-url`/`unless-frame-url` regexes; with both, a preceding `ignore-following-rules`
///   rule carries the exclusions;
/// - allowAllRequests becomes `.*` on every type, with `if-top-url` from its filter when it lists
///   main_frame, otherwise `if-frame-url` and `load-context: child-frame`;
/// - keys WebKit does not read (topDomains, excludedTopDomains, tab ids, response headers) are
///   ignored, which makes such rules broader.
///
/// Every way this differs from Chromium's DNR semantics is a ``KnownDivergence``.
public enum ContentBlockerTranslator {
    /// Translates `rulesets`, validating each rule (Chromium's checks) and each
    /// produced regex against WebKit's url-filter subset.
    public static func translate(_ rulesets: [DNRRuleset]) -> ContentBlockerTranslation {
        var valid: [(rule: DNRRule, ruleset: DNRRuleset)] = []
        var errors: [String] = []
        for ruleset in rulesets {
            let problems = DNRRuleValidator.validate(ruleset: ruleset.rules, source: ruleset.source)
            errors += problems.map { "\(ruleset.id): \($0.message)" }
            let invalid = Set(problems.compactMap(\.ruleIndex))
            for (index, rule) in ruleset.rules.enumerated() where !invalid.contains(index) {
                valid.append((rule, ruleset))
            }
        }
        // Descending (priority, rank), stable among equals: WebKit's -compare: used by translateRules.
        let ordered = valid.enumerated().sorted { lhs, rhs in
            let l = (lhs.element.rule.effectivePriority, lhs.element.rule.action.type.rank)
            let r = (rhs.element.rule.effectivePriority, rhs.element.rule.action.type.rank)
            return l != r ? l > r : lhs.offset < rhs.offset
        }.map(\.element)
        var rules: [ContentBlockerRule] = []
        var origins: [DNRMatchedRule] = []
        var sources: [DNRRule] = []
        var exclusions: Set<Int> = []
        for (rule, ruleset) in ordered {
            let origin = DNRMatchedRule(rulesetID: ruleset.id, ruleID: rule.id, action: rule.action.type, priority: rule.effectivePriority)
            for (converted, isExclusion) in convertMarked(rule) {
                if let problem = check(converted) {
                    errors.append("\(ruleset.id): rule with id \(rule.id): \(problem)")
                    continue
                }
                if isExclusion { exclusions.insert(rules.count) }
                rules.append(converted)
                origins.append(origin)
                sources.append(rule)
            }
        }
        return ContentBlockerTranslation(rules: rules, origins: origins, sources: sources, exclusions: exclusions, errors: errors)
    }

    // MARK: - One rule

    /// WebKit's chrome→webkit resource type table; types absent here are dropped.
    static let resourceTypeMap: [DNRResourceType: ContentBlockerResourceType] = [
        .font: .font, .image: .image, .mainFrame: .topDocument, .media: .media, .other: .other, .ping: .ping,
        .script: .script, .stylesheet: .styleSheet, .subFrame: .childDocument, .websocket: .websocket,
        .xmlhttprequest: .fetch,
    ]

    /// The action a DNR action type becomes.
    static func webKitKind(_ type: DNRRuleAction.Kind) -> ContentBlockerAction.Kind {
        switch type {
        case .allow, .allowAllRequests: .ignoreFollowingRules
        case .block: .block
        case .modifyHeaders: .modifyHeaders
        case .redirect: .redirect
        case .upgradeScheme: .makeHTTPS
        }
    }

    /// `ruleInWebKitFormat`: the exclusion rules first, then the rule itself, once per request
    /// domain and request method.
    static func convert(_ rule: DNRRule) -> [ContentBlockerRule] { convertMarked(rule).map(\.rule) }

    /// ``convert(_:)``, each produced rule marked when it is an exclusion (an
    /// `ignore-following-rules` rule made from an excluded domain, method or initiator).
    static func convertMarked(_ rule: DNRRule) -> [(rule: ContentBlockerRule, isExclusion: Bool)] {
        let kind = webKitKind(rule.action.type)
        let allowAll = rule.action.type == .allowAllRequests
        let c = rule.condition
        func withURLFilter(_ condition: DNRRuleCondition, _ filter: String) -> DNRRuleCondition {
            var modified = condition
            modified.urlFilter = filter
            modified.regexFilter = nil
            modified.requestDomains = nil
            modified.excludedRequestDomains = nil
            return modified
        }
        func withMethod(_ condition: DNRRuleCondition, _ method: DNRRequestMethod) -> DNRRuleCondition {
            var modified = condition
            modified.requestMethods = [method]
            modified.excludedRequestMethods = nil
            return modified
        }
        func eachMethod(_ condition: DNRRuleCondition, _ methods: [DNRRequestMethod]?, as kind: ContentBlockerAction.Kind)
            -> [(rule: ContentBlockerRule, isExclusion: Bool)] {
            guard let methods, !allowAll else { return convert(rule, condition: condition, as: kind) }
            return methods.flatMap { convert(rule, condition: withMethod(condition, $0), as: kind) }
        }
        func exclusion(_ made: [(rule: ContentBlockerRule, isExclusion: Bool)]) -> [(rule: ContentBlockerRule, isExclusion: Bool)] {
            made.map { ($0.rule, true) }
        }
        var output: [(rule: ContentBlockerRule, isExclusion: Bool)] = []
        if let excluded = c.excludedRequestDomains {
            for domain in excluded {
                output += exclusion(eachMethod(withURLFilter(c, domain), c.excludedRequestMethods, as: .ignoreFollowingRules))
            }
        } else if let methods = c.excludedRequestMethods, !allowAll {
            output += exclusion(methods.flatMap { convert(rule, condition: withMethod(c, $0), as: .ignoreFollowingRules) })
        }
        if let domains = c.requestDomains, c.regexFilter == nil {
            for domain in domains {
                output += eachMethod(withURLFilter(c, combine(requestDomain: domain, urlFilter: c.urlFilter)), c.requestMethods, as: kind)
            }
        } else {
            output += eachMethod(c, c.requestMethods, as: kind)
        }
        return output
    }

    /// `_convertRulesWithModifiedCondition`: an initiator-exclusion twin before the rule when it
    /// lists both initiator lists, a trailing `ignore-following-rules` after a `make-https`.
    private static func convert(_ rule: DNRRule, condition: DNRRuleCondition, as kind: ContentBlockerAction.Kind)
        -> [(rule: ContentBlockerRule, isExclusion: Bool)] {
        var output: [(rule: ContentBlockerRule, isExclusion: Bool)] = []
        if condition.initiatorDomains != nil, let excluded = condition.excludedInitiatorDomains, rule.action.type != .allowAllRequests {
            var swapped = condition
            swapped.initiatorDomains = excluded
            swapped.excludedInitiatorDomains = nil
            output.append((make(rule, .ignoreFollowingRules, swapped), true))
        }
        output.append((make(rule, kind, condition), kind == .ignoreFollowingRules && rule.action.type != .allow && rule.action.type != .allowAllRequests))
        if kind == .makeHTTPS { output.append((make(rule, .ignoreFollowingRules, condition), false)) }
        return output
    }

    /// `_allChromeResourceTypesForCondition`: the included types, or the mapped types minus the
    /// excluded ones, or the mapped types minus main_frame; then WebKit's names, unmapped dropped.
    static func webKitResourceTypes(_ c: DNRRuleCondition) -> [ContentBlockerResourceType] {
        let mapped = DNRResourceType.allCases.filter { resourceTypeMap[$0] != nil }
        let chrome: [DNRResourceType]
        if let included = c.resourceTypes {
            var seen = Set<DNRResourceType>()
            chrome = included.filter { seen.insert($0).inserted }
        } else if let excluded = c.excludedResourceTypes {
            chrome = mapped.filter { !excluded.contains($0) }
        } else {
            chrome = mapped.filter { $0 != .mainFrame }
        }
        return chrome.compactMap { resourceTypeMap[$0] }
    }

    /// A produced rule WebKit would refuse: its url-filter and frame/top regexes must parse.
    static func check(_ rule: ContentBlockerRule) -> String? {
        let trigger = rule.trigger
        let expressions = [trigger.urlFilter] + (trigger.ifTopURL ?? []) + (trigger.unlessTopURL ?? [])
            + (trigger.ifFrameURL ?? []) + (trigger.unlessFrameURL ?? [])
        for expression in expressions {
            do {
                _ = try URLFilterRegex(expression)
            } catch let error as URLFilterRegexError {
                return error.description
            } catch {
                return "\(error)"
            }
        }
        return nil
    }
}
