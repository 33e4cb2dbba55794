extension ContentBlockerTranslator {
    /// One Content Blocker rule for `types` of a DNR rule (`_webKitRuleWithWebKitActionType`).
    static func make(_ rule: DNRRule, _ kind: ContentBlockerAction.Kind, _ c: DNRRuleCondition,
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
}
