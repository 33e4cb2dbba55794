extension ContentBlockerTranslator {
    /// One Content Blocker rule (`_webKitRuleWithWebKitActionType`).
    static func make(_ rule: DNRRule, _ kind: ContentBlockerAction.Kind, _ c: DNRRuleCondition) -> ContentBlockerRule {
        let filterRegex = c.urlFilter.flatMap(regex(forURLFilter:)) ?? c.regexFilter
        if rule.action.type == .allowAllRequests {
            // Every type; the document the rule names is the top one (main_frame) or a child
            // frame (sub_frame only; WebKit FIXME rdar://154124673). Nothing else is read.
            var trigger = ContentBlockerTrigger(urlFilter: ".*")
            if c.resourceTypes?.contains(.mainFrame) == true {
                trigger.ifTopURL = [filterRegex ?? ".*"]
            } else {
                trigger.ifFrameURL = [filterRegex ?? ".*"]
                trigger.loadContext = [.childFrame]
            }
            return ContentBlockerRule(trigger: trigger, action: ContentBlockerAction(type: kind))
        }
        var trigger = ContentBlockerTrigger(urlFilter: filterRegex ?? ".*")
        if c.isUrlFilterCaseSensitive == true { trigger.urlFilterIsCaseSensitive = true }
        trigger.resourceType = webKitResourceTypes(c)
        if let domainType = c.domainType {
            trigger.loadType = [domainType == .firstParty ? .firstParty : .thirdParty]
        }
        let star = { (domain: String) in domain.hasPrefix("*") ? domain : "*" + domain }
        if let domains = c.domains {
            trigger.ifDomain = domains.map(star)
        } else if let excluded = c.excludedDomains {
            trigger.unlessDomain = excluded.map(star)
        }
        if let domains = c.initiatorDomains {
            trigger.ifFrameURL = domains.map(frameURLRegex)
        } else if let excluded = c.excludedInitiatorDomains {
            trigger.unlessFrameURL = excluded.map(frameURLRegex)
        }
        // Only a condition narrowed to one method carries one; WebKit writes the value as given.
        if let methods = c.requestMethods, methods.count == 1 { trigger.requestMethod = methods[0].rawValue }
        var action = ContentBlockerAction(type: kind)
        if kind == .modifyHeaders {
            action.requestHeaders = encodeJSON(rule.action.requestHeaders)
            action.responseHeaders = encodeJSON(rule.action.responseHeaders)
            action.priority = rule.effectivePriority
        }
        if kind == .redirect, let redirect = rule.action.redirect { action.redirect = webKitRedirect(redirect) }
        return ContentBlockerRule(trigger: trigger, action: action)
    }

    /// `_combineRequestDomain:withURLFilter:`: where WebKit puts a request domain into a rule's
    /// urlFilter (one rule per domain). Its cases, in order: no filter gives `||domain`; a filter
    /// that starts with the domain is anchored as it is; a common substring longer than one
    /// character is replaced by the whole domain; a `||` or `://` filter gets `*domain` after its
    /// host part; anything else becomes `||domain*filter`. This is textual, so the result can
    /// match hosts DNR would not (a known divergence).
    static func combine(requestDomain domain: String, urlFilter: String?) -> String {
        guard let filter = urlFilter else { return "||" + domain }
        let trimmedFilter = filter.drop { $0 == "." }
        if trimmedFilter.hasPrefix(domain) { return filter.hasPrefix("||") ? filter : "||" + filter }
        if let common = longestCommonSubstring(domain, filter), common.count > 1 {
            let anchored = filter.hasPrefix("||") ? filter : "||" + filter
            if let range = anchored.range(of: common) { return anchored.replacingCharacters(in: range, with: domain) }
        }
        if filter.hasPrefix("||") || filter.hasPrefix("://") {
            if filter.replacingOccurrences(of: "://", with: "").contains("/") {
                // WebKit drops the first three characters whichever prefix it is.
                var parts = filter.dropFirst(3).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
                parts[0] = parts[0].hasSuffix("*") ? parts[0] + domain : parts[0] + "*" + domain
                return "://" + parts.joined(separator: "/")
            }
            return filter.hasSuffix("*") ? filter + domain : filter + "*" + domain
        }
        return "||" + domain + "*" + filter
    }

    /// The first longest run of characters both strings contain (`_findLongestCommonSubstring…`).
    static func longestCommonSubstring(_ a: String, _ b: String) -> String? {
        let x = Array(a.utf16), y = Array(b.utf16)
        var best = (start: 0, length: 0)
        for i in x.indices {
            for j in y.indices where x[i] == y[j] {
                var k = 1
                while i + k < x.count, j + k < y.count, x[i + k] == y[j + k] { k += 1 }
                if k > best.length { best = (i, k) }
            }
        }
        guard best.length > 0 else { return nil }
        return String(decoding: x[best.start..<(best.start + best.length)], as: UTF16.self)
    }
}
