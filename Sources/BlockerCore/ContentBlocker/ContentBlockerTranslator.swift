/// Translates DNR rules to WebKit Content Blocker rules the way Safari's own
/// translator does (WebKit Source/WebKit/UIProcess/Extensions/Cocoa/
/// _WKWebExtensionDeclarativeNetRequestRule.mm `ruleInWebKitFormat` and
/// _WKWebExtensionDeclarativeNetRequestTranslator.mm `translateRules`):
///
/// - rules are sorted by ascending priority, then action rank, so later rules win;
///   allow and allowAllRequests become `ignore-previous-rules`, which cancels the
///   lower-priority rules placed before them;
/// - upgradeScheme becomes `make-https` preceded by an `ignore-previous-rules` twin;
/// - main_frame/sub_frame become `document` with `load-context` top-frame/child-frame,
///   in a rule of their own; other types map one to one; object, csp_report,
///   webtransport and webbundle have no mapping and are dropped;
/// - `requestDomains` alone becomes one rule per domain with a url-filter anchored on the
///   request host (current WebKit); `domains`, and `requestDomains` combined with a
///   urlFilter, become `if-domain`, the excluded ones `unless-domain` (a `*` prefix for
///   subdomains); WebKit's if-domain tests the main document, not the request (see
///   Sources/BlockerCore/README.md, known divergences);
/// - initiator domains become `if-frame-url`/`unless-frame-url` regexes; with both,
///   an extra `ignore-previous-rules` rule carries the exclusions;
/// - allowAllRequests becomes `.*` with `if-top-url` from its filter;
/// - keys WebKit does not read (topDomains, excludedTopDomains, request methods,
///   tab ids, response headers) are ignored, which makes such rules broader.
///
/// This follows the revision of those files that sorts ascending with
/// ignore-previous-rules; later WebKit revisions sort descending and use
/// ignore-following-rules, with the same outcome for ADV's block-only rules.
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
        // Stable ascending sort by (priority, rank): WebKit's -compare:.
        let ordered = valid.enumerated().sorted { lhs, rhs in
            let l = (lhs.element.rule.effectivePriority, lhs.element.rule.action.type.rank, lhs.offset)
            let r = (rhs.element.rule.effectivePriority, rhs.element.rule.action.type.rank, rhs.offset)
            return l < r
        }.map(\.element)
        var rules: [ContentBlockerRule] = []
        var origins: [DNRMatchedRule] = []
        for (rule, ruleset) in ordered {
            let origin = DNRMatchedRule(rulesetID: ruleset.id, ruleID: rule.id, action: rule.action.type, priority: rule.effectivePriority)
            for converted in convert(rule) {
                if let problem = check(converted) {
                    errors.append("\(ruleset.id): rule with id \(rule.id): \(problem)")
                    continue
                }
                rules.append(converted)
                origins.append(origin)
            }
        }
        return ContentBlockerTranslation(rules: rules, origins: origins, errors: errors)
    }

    // MARK: - One rule

    /// WebKit's chrome→webkit resource type table; types absent here are dropped.
    static let resourceTypeMap: [DNRResourceType: ContentBlockerResourceType] = [
        .font: .font, .image: .image, .mainFrame: .document, .media: .media, .other: .other, .ping: .ping,
        .script: .script, .stylesheet: .styleSheet, .subFrame: .document, .websocket: .websocket,
        .xmlhttprequest: .fetch,
    ]

    static func convert(_ rule: DNRRule) -> [ContentBlockerRule] {
        let kind: ContentBlockerAction.Kind =
            switch rule.action.type {
            case .allow, .allowAllRequests: .ignorePreviousRules
            case .block: .block
            case .modifyHeaders: .modifyHeaders
            case .redirect: .redirect
            case .upgradeScheme: .makeHTTPS
            }
        var output: [ContentBlockerRule] = []
        if kind == .makeHTTPS { output += convert(rule, as: .ignorePreviousRules, condition: rule.condition) }
        output += convert(rule, as: kind, condition: rule.condition)
        let c = rule.condition
        if c.initiatorDomains != nil, let excluded = c.excludedInitiatorDomains {
            var swapped = c
            swapped.initiatorDomains = excluded
            swapped.excludedInitiatorDomains = nil
            output += convert(rule, as: .ignorePreviousRules, condition: swapped)
        }
        return output
    }

    private static func convert(_ rule: DNRRule, as kind: ContentBlockerAction.Kind, condition: DNRRuleCondition) -> [ContentBlockerRule] {
        // Current WebKit turns `requestDomains` (with no urlFilter/regexFilter to combine with)
        // into one rule per domain whose url-filter is anchored on the request's host, so the
        // rule tests the request, as DNR specifies; older revisions used if-domain, which tests
        // the main document instead. ADV's source blocks are exactly such rules.
        if let domains = condition.requestDomains, condition.urlFilter == nil, condition.regexFilter == nil {
            return domains.flatMap { domain -> [ContentBlockerRule] in
                var perDomain = condition
                perDomain.requestDomains = nil
                perDomain.regexFilter = "^[^:]+://+([^:/]+\\.)?" + escape(domain, characters: "*?+[(){}^$|\\.") + "[:/]"
                return convert(rule, as: kind, condition: perDomain)
            }
        }
        var types = chromeResourceTypes(condition)
        var output: [ContentBlockerRule] = []
        let frames = types.filter { $0 == .mainFrame || $0 == .subFrame }
        if !frames.isEmpty { output.append(make(rule, kind, condition, frames)) }
        types.removeAll { $0 == .mainFrame || $0 == .subFrame }
        if !types.isEmpty { output.append(make(rule, kind, condition, types)) }
        return output
    }

    /// `_allChromeResourceTypes`: included types (unmapped ones dropped), or the
    /// mapped types minus the excluded ones, or the mapped types minus main_frame.
    static func chromeResourceTypes(_ c: DNRRuleCondition) -> [DNRResourceType] {
        let mapped = DNRResourceType.allCases.filter { resourceTypeMap[$0] != nil }
        if let included = c.resourceTypes { return included.filter { resourceTypeMap[$0] != nil } }
        if let excluded = c.excludedResourceTypes { return mapped.filter { !excluded.contains($0) } }
        return mapped.filter { $0 != .mainFrame }
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
