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
/// - `domains`/`requestDomains` become `if-domain`, the excluded ones `unless-domain`
///   (a `*` prefix for subdomains); note that WebKit's if-domain tests the main
///   document, not the request (see docs/blockercore.md, known divergences);
/// - initiator domains become `if-frame-url`/`unless-frame-url` regexes; with both,
///   an extra `ignore-previous-rules` rule carries the exclusions;
/// - allowAllRequests becomes `.*` with `if-top-url` from its filter.
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

    private static func make(_ rule: DNRRule, _ kind: ContentBlockerAction.Kind, _ c: DNRRuleCondition,
                             _ types: [DNRResourceType]) -> ContentBlockerRule {
        let allowAll = rule.action.type == .allowAllRequests
        let filter = allowAll ? ".*" : (c.urlFilter.flatMap(regex(forURLFilter:)) ?? c.regexFilter ?? ".*")
        var trigger = ContentBlockerTrigger(urlFilter: filter)
        if c.isUrlFilterCaseSensitive == true { trigger.urlFilterIsCaseSensitive = true }
        if !allowAll {
            let contexts = types.compactMap { type -> ContentBlockerLoadContext? in
                type == .mainFrame ? .topFrame : type == .subFrame ? .childFrame : nil
            }
            if contexts.isEmpty {
                trigger.resourceType = types.compactMap { resourceTypeMap[$0] }
            } else {
                trigger.loadContext = contexts
                trigger.resourceType = [.document]
            }
        }
        if let domainType = c.domainType {
            trigger.loadType = [domainType == .firstParty ? .firstParty : .thirdParty]
        }
        let star = { (domain: String) in domain.hasPrefix("*") ? domain : "*" + domain }
        if let domains = c.domains {
            trigger.ifDomain = domains.map(star)
        } else if let domains = c.requestDomains {
            trigger.ifDomain = domains.map(star)
        } else if let excluded = c.excludedDomains {
            trigger.unlessDomain = excluded.map(star)
        } else if let excluded = c.excludedRequestDomains {
            trigger.unlessDomain = excluded.map(star)
        }
        if let domains = c.initiatorDomains {
            trigger.ifFrameURL = domains.map(frameURLRegex)
        } else if let excluded = c.excludedInitiatorDomains {
            trigger.unlessFrameURL = excluded.map(frameURLRegex)
        }
        if allowAll {
            trigger.ifTopURL = [c.urlFilter.flatMap(regex(forURLFilter:)) ?? c.regexFilter ?? ""]
        }
        var action = ContentBlockerAction(type: kind)
        if kind == .modifyHeaders {
            action.requestHeaders = encodeJSON(rule.action.requestHeaders)
            action.responseHeaders = encodeJSON(rule.action.responseHeaders)
            action.priority = rule.effectivePriority
        }
        if kind == .redirect, let redirect = rule.action.redirect { action.redirect = webKitRedirect(redirect) }
        return ContentBlockerRule(trigger: trigger, action: action)
    }

    /// `_regexURLFilterForChromeURLFilter`: `||` → `^[^:]+://+([^:/]+\.)?`, `|` → `^`/`$`,
    /// `*` → `.*`, `^` → `[^a-zA-Z0-9_.%-]`, other regex characters escaped.
    public static func regex(forURLFilter filter: String) -> String? {
        if filter.isEmpty { return nil }
        var body = Substring(filter)
        let domainAnchor = body.hasPrefix("||")
        if domainAnchor { body = body.dropFirst(2) }
        let startAnchor = !domainAnchor && body.hasPrefix("|")
        if startAnchor { body = body.dropFirst() }
        let endAnchor = body.hasSuffix("|")
        if endAnchor { body = body.dropLast() }
        var regex = escape(String(body), characters: "?+[(){}$|\\.")
        regex = regex.replacingOccurrences(of: "*", with: ".*")
        regex = regex.replacingOccurrences(of: "^", with: "[^a-zA-Z0-9_.%-]")
        if domainAnchor { regex = "^[^:]+://+([^:/]+\\.)?" + regex }
        if startAnchor { regex = "^" + regex }
        if endAnchor { regex += "$" }
        return regex
    }

    static func frameURLRegex(_ domain: String) -> String {
        "^[^:]+://+([^:/]+\\.)?" + escape(domain, characters: "*?+[(){}^$|\\.") + "/.*"
    }

    static func escape(_ text: String, characters: String) -> String {
        var output = ""
        for character in text {
            if characters.contains(character) { output.append("\\") }
            output.append(character)
        }
        return output
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
