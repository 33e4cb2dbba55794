import Testing
@testable import BlockerCore

private func rule(_ id: Int, _ action: DNRRuleAction.Kind, priority: Int = 1, _ condition: DNRRuleCondition) -> DNRRule {
    DNRRule(id: id, priority: priority, condition: condition, action: DNRRuleAction(type: action))
}

private func request(_ url: String, _ type: DNRResourceType = .script, initiator: String? = "https://news.example",
                     method: DNRRequestMethod = .get, frames: [String] = []) throws -> DNRRequest {
    try DNRRequest(url: url, type: type, method: method, initiator: initiator, frames: frames)
}

private func dynamic(_ rules: [DNRRule]) -> DNRMatcher {
    DNRMatcher(rulesets: [DNRRuleset(id: "_dynamic", source: .dynamic, rules: rules)])
}

/// Built-in rules: the spec's "block subresources of those hosts and their subdomains, never main_frame".
@Test(arguments: [
    ("https://ad.doubleclick.net/ddm/x.js", DNRResourceType.script, true),
    ("https://doubleclick.net/pixel.gif", .image, true),
    ("https://securepubads.g.doubleclick.net/tag/js/gpt.js", .script, true),
    ("https://doubleclick.net/", .mainFrame, false),
    ("https://www.doubleclick.net/", .mainFrame, false),
    ("https://ad.doubleclick.net/frame.html", .subFrame, true),
    ("https://notdoubleclick.net/x.js", .script, false),
    ("https://doubleclick.net.example.org/x.js", .script, false),
    ("https://example.org/?ref=doubleclick.net", .script, false),
    ("https://adservice.google.com/adsid/integrator.js", .script, true),
    ("https://www.google.com/search", .xmlhttprequest, false),
    ("https://cdn.taboola.com/libtrc/loader.js", .script, true),
    ("wss://ws.criteo.com/socket", .websocket, true),
])
func builtInRules(url: String, type: DNRResourceType, blocked: Bool) throws {
    let matcher = DNRMatcher(rulesets: [BuiltInRules.ruleset])
    #expect(matcher.decide(try request(url, type)).isBlocked == blocked)
}

@Test func higherPriorityWinsThenActionRank() throws {
    let block = rule(1, .block, DNRRuleCondition(urlFilter: "||ads.example^"))
    let allowSamePriority = rule(2, .allow, DNRRuleCondition(urlFilter: "/ok/"))
    let blockHigher = rule(3, .block, priority: 2, DNRRuleCondition(urlFilter: "/blocked-anyway/"))
    let matcher = dynamic([block, allowSamePriority, blockHigher])
    // Same priority: allow (rank 5) beats block (rank 3).
    #expect(matcher.decide(try request("https://ads.example/ok/a.js")).rule?.ruleID == 2)
    // Higher priority block beats a lower priority allow.
    #expect(matcher.decide(try request("https://ads.example/ok/blocked-anyway/a.js")).isBlocked)
    #expect(matcher.decide(try request("https://ads.example/a.js")).rule?.ruleID == 1)
}

/// Ranks within one priority: allow > allowAllRequests > block > upgradeScheme > redirect > modifyHeaders.
@Test func actionRankOrder() throws {
    let condition = DNRRuleCondition(urlFilter: "||site.example^", resourceTypes: [.subFrame])
    let redirect = DNRRule(id: 1, condition: condition, action: DNRRuleAction(type: .redirect, redirect: DNRRedirect(url: "https://elsewhere.example/")))
    let upgrade = rule(2, .upgradeScheme, condition)
    let block = rule(3, .block, condition)
    let allowAll = rule(4, .allowAllRequests, condition)
    let url = "http://site.example/frame"
    #expect(dynamic([redirect]).decide(try request(url, .subFrame)) == .redirect(dynamic([redirect]).rules[0].matched, url: "https://elsewhere.example/"))
    #expect(dynamic([redirect, upgrade]).decide(try request(url, .subFrame)).rule?.action == .upgradeScheme)
    #expect(dynamic([redirect, upgrade, block]).decide(try request(url, .subFrame)).rule?.action == .block)
    #expect(dynamic([redirect, upgrade, block, allowAll]).decide(try request(url, .subFrame)).rule?.action == .allowAllRequests)
}

@Test func upgradeSchemeOnlyForHTTP() throws {
    let matcher = dynamic([rule(1, .upgradeScheme, DNRRuleCondition(urlFilter: "||site.example^"))])
    guard case .upgradeScheme(_, let url) = matcher.decide(try request("http://site.example/a.js")) else {
        Issue.record("expected an upgrade")
        return
    }
    #expect(url == "https://site.example/a.js")
    #expect(matcher.decide(try request("https://site.example/a.js")) == .noMatch)
}

/// Ties go to the higher ruleset id (static > dynamic > session), then the higher rule id.
@Test func tieBreaks() throws {
    let condition = DNRRuleCondition(urlFilter: "||ads.example^")
    let staticSet = DNRRuleset(id: "adv_builtin", source: .staticRuleset(index: 0), rules: [rule(7, .block, condition)])
    let dynamicSet = DNRRuleset(id: "_dynamic", source: .dynamic, rules: [rule(9, .block, condition)])
    let sessionSet = DNRRuleset(id: "_session", source: .session, rules: [rule(11, .block, condition)])
    let matcher = DNRMatcher(rulesets: [sessionSet, dynamicSet, staticSet])
    #expect(matcher.decide(try request("https://ads.example/x")).rule?.rulesetID == "adv_builtin")
    let sameSet = dynamic([rule(4, .block, condition), rule(12, .block, condition), rule(5, .block, condition)])
    #expect(sameSet.decide(try request("https://ads.example/x")).rule?.ruleID == 12)
}

@Test func defaultResourceTypesExcludeMainFrame() throws {
    let matcher = dynamic([rule(1, .block, DNRRuleCondition(urlFilter: "||ads.example^"))])
    #expect(!matcher.decide(try request("https://ads.example/", .mainFrame)).isBlocked)
    #expect(matcher.decide(try request("https://ads.example/", .subFrame)).isBlocked)
    let explicit = dynamic([rule(1, .block, DNRRuleCondition(urlFilter: "||ads.example^", resourceTypes: [.mainFrame]))])
    #expect(explicit.decide(try request("https://ads.example/", .mainFrame)).isBlocked)
    #expect(!explicit.decide(try request("https://ads.example/a.js", .script)).isBlocked)
    let excluded = dynamic([rule(1, .block, DNRRuleCondition(urlFilter: "||ads.example^", excludedResourceTypes: [.image]))])
    #expect(excluded.decide(try request("https://ads.example/", .mainFrame)).isBlocked)
    #expect(!excluded.decide(try request("https://ads.example/a.png", .image)).isBlocked)
}

/// The longest listed domain decides between include and exclude.
@Test(arguments: [
    ("https://example.com", true), ("https://b.example.com", true), ("https://a.example.com", false),
    ("https://x.a.example.com", false), ("https://y.x.a.example.com", true), ("https://other.org", false),
])
func initiatorDomainsLongestMatchDecides(initiator: String, blocked: Bool) throws {
    let condition = DNRRuleCondition(
        urlFilter: "||ads.example^", initiatorDomains: ["example.com", "y.x.a.example.com"],
        excludedInitiatorDomains: ["a.example.com"])
    let matcher = dynamic([rule(1, .block, condition)])
    #expect(matcher.decide(try request("https://ads.example/a.js", initiator: initiator)).isBlocked == blocked)
}

@Test(arguments: [
    ("https://cdn.example.com/a.js", true), ("https://example.com/a.js", true), ("https://img.cdn.example.com/a.js", false),
    ("https://badexample.com/a.js", false),
])
func requestDomains(url: String, blocked: Bool) throws {
    let condition = DNRRuleCondition(requestDomains: ["example.com"], excludedRequestDomains: ["img.cdn.example.com"])
    #expect(dynamic([rule(1, .block, condition)]).decide(try request(url)).isBlocked == blocked)
}

@Test func opaqueInitiatorOnlySatisfiesRulesWithoutIncludedInitiators() throws {
    let included = dynamic([rule(1, .block, DNRRuleCondition(urlFilter: "||ads.example^", initiatorDomains: ["news.example"]))])
    let excludedOnly = dynamic([rule(1, .block, DNRRuleCondition(urlFilter: "||ads.example^", excludedInitiatorDomains: ["news.example"]))])
    #expect(!included.decide(try request("https://ads.example/a.js", initiator: "null")).isBlocked)
    #expect(excludedOnly.decide(try request("https://ads.example/a.js", initiator: "null")).isBlocked)
    #expect(!excludedOnly.decide(try request("https://ads.example/a.js", initiator: "https://www.news.example")).isBlocked)
}

@Test(arguments: [
    ("https://cdn.news.example/a.js", "https://www.news.example", DNRDomainType.firstParty, true),
    ("https://ads.example/a.js", "https://www.news.example", .firstParty, false),
    ("https://ads.example/a.js", "https://www.news.example", .thirdParty, true),
    ("https://cdn.news.example/a.js", "https://www.news.example", .thirdParty, false),
    ("https://ads.example/a.js", "null", .thirdParty, true),
    ("https://ads.example/a.js", "null", .firstParty, false),
    ("https://static.bbc.co.uk/a.js", "https://www.bbc.co.uk", .firstParty, true),
    ("https://other.co.uk/a.js", "https://www.bbc.co.uk", .thirdParty, true),
])
func domainType(url: String, initiator: String, type: DNRDomainType, blocked: Bool) throws {
    let matcher = dynamic([rule(1, .block, DNRRuleCondition(domainType: type))])
    #expect(matcher.decide(try request(url, initiator: initiator)).isBlocked == blocked)
}

@Test func caseSensitivity() throws {
    let insensitive = dynamic([rule(1, .block, DNRRuleCondition(urlFilter: "/Ads/"))])
    let sensitive = dynamic([rule(1, .block, DNRRuleCondition(urlFilter: "/Ads/", isUrlFilterCaseSensitive: true))])
    #expect(insensitive.decide(try request("https://site.example/ads/x.js")).isBlocked)
    #expect(!sensitive.decide(try request("https://site.example/ads/x.js")).isBlocked)
    #expect(sensitive.decide(try request("https://site.example/Ads/x.js")).isBlocked)
}

@Test func requestMethodsAlsoExcludeNonHTTP() throws {
    let post = dynamic([rule(1, .block, DNRRuleCondition(urlFilter: "collect", requestMethods: [.post]))])
    #expect(post.decide(try request("https://t.example/collect", .ping, method: .post)).isBlocked)
    #expect(!post.decide(try request("https://t.example/collect", .ping, method: .get)).isBlocked)
    #expect(!post.decide(try request("wss://t.example/collect", .websocket, method: .post)).isBlocked)
    let notGet = dynamic([rule(1, .block, DNRRuleCondition(urlFilter: "collect", excludedRequestMethods: [.get]))])
    #expect(notGet.decide(try request("wss://t.example/collect", .websocket)).isBlocked)
}

/// allowAllRequests on a frame lets that frame's subresources and child frames through,
/// unless a higher-priority rule says otherwise.
@Test func allowAllRequestsAppliesToFrameSubresources() throws {
    let allowAll = rule(1, .allowAllRequests, priority: 2, DNRRuleCondition(urlFilter: "||trusted.example^", resourceTypes: [.mainFrame]))
    let block = rule(2, .block, DNRRuleCondition(urlFilter: "||ads.example^"))
    let strongBlock = rule(3, .block, priority: 3, DNRRuleCondition(urlFilter: "||ads.example/always/"))
    let matcher = dynamic([allowAll, block, strongBlock])
    let onTrusted = try request("https://ads.example/a.js", initiator: "https://trusted.example", frames: ["https://trusted.example/page"])
    #expect(matcher.decide(onTrusted).rule?.action == .allowAllRequests)
    let nested = try request("https://ads.example/a.js", initiator: "https://widget.example",
                             frames: ["https://trusted.example/page", "https://widget.example/frame"])
    #expect(!matcher.decide(nested).isBlocked)
    let elsewhere = try request("https://ads.example/a.js", frames: ["https://news.example/"])
    #expect(matcher.decide(elsewhere).isBlocked)
    let strong = try request("https://ads.example/always/a.js", frames: ["https://trusted.example/page"])
    #expect(matcher.decide(strong).isBlocked)
}

@Test func modifyHeadersAtOrBelowAllowPriorityAreDropped() throws {
    let header = DNRModifyHeaderInfo(header: "referer", operation: .remove)
    let low = DNRRule(id: 1, priority: 1, condition: DNRRuleCondition(urlFilter: "||t.example^"),
                      action: DNRRuleAction(type: .modifyHeaders, requestHeaders: [header]))
    let high = DNRRule(id: 2, priority: 3, condition: DNRRuleCondition(urlFilter: "||t.example^"),
                       action: DNRRuleAction(type: .modifyHeaders, requestHeaders: [header]))
    let allow = rule(3, .allow, priority: 2, DNRRuleCondition(urlFilter: "||t.example^"))
    let decision = dynamic([low, high, allow]).decide(try request("https://t.example/x"))
    guard case .modifyHeaders(let rules) = decision else {
        Issue.record("expected header changes, got \(decision)")
        return
    }
    #expect(rules.map(\.ruleID) == [2])
}

@Test func regexFilterAndRedirectSubstitution() throws {
    let redirect = DNRRule(
        id: 1, condition: DNRRuleCondition(regexFilter: "^https://ads\\.example/(.*)\\.js$"),
        action: DNRRuleAction(type: .redirect, redirect: DNRRedirect(regexSubstitution: "https://cdn.example/stub/\\1.js")))
    let decision = dynamic([redirect]).decide(try request("https://ads.example/tag.js"))
    guard case .redirect(_, let url) = decision else {
        Issue.record("expected a redirect, got \(decision)")
        return
    }
    #expect(url == "https://cdn.example/stub/tag.js")
}

/// The index must agree with a full scan: same decision for indexed and unindexable spellings.
@Test func indexedAndGenericRulesAgree() throws {
    let indexed = dynamic([rule(1, .block, DNRRuleCondition(urlFilter: "||ads.example^"))])
    let generic = dynamic([rule(1, .block, DNRRuleCondition(regexFilter: "^[a-z]+://([^/]+\\.)?ads\\.example[/:]"))])
    for url in ["https://ads.example/x", "https://a.b.ads.example/x", "https://ads.example.org/x", "https://xads.example/x"] {
        #expect(indexed.decide(try request(url)).isBlocked == generic.decide(try request(url)).isBlocked, "\(url)")
    }
}

/// topDomains test the top-level frame (Chrome 145+): the navigation's own host for
/// main_frame, the top document otherwise, the initiator without frames.
@Test func topDomains() throws {
    let matcher = dynamic([rule(1, .block, DNRRuleCondition(requestDomains: ["tracker.example"], excludedTopDomains: ["tracker.example"]))])
    #expect(matcher.decide(try request("https://cdn.tracker.example/p.js", frames: ["https://www.news.example/story"])).isBlocked)
    #expect(!matcher.decide(try request("https://cdn.tracker.example/p.js", frames: ["https://www.tracker.example/"])).isBlocked)
    // An iframe on the tracker's own site: the top frame decides, not the iframe.
    #expect(!matcher.decide(try request("https://cdn.tracker.example/p.js", initiator: "https://widget.example",
                                        frames: ["https://tracker.example/", "https://widget.example/w"])).isBlocked)
    // No frame: the initiator stands in.
    #expect(!matcher.decide(try request("https://cdn.tracker.example/p.js", initiator: "https://tracker.example")).isBlocked)
    let onlyOn = dynamic([rule(1, .block, DNRRuleCondition(urlFilter: "||ads.example^", topDomains: ["news.example"]))])
    #expect(onlyOn.decide(try request("https://ads.example/a.js", frames: ["https://www.news.example/"])).isBlocked)
    #expect(!onlyOn.decide(try request("https://ads.example/a.js", frames: ["https://blog.example/"])).isBlocked)
    #expect(!onlyOn.decide(try request("https://ads.example/a.js", initiator: nil)).isBlocked)
}

/// Every resource type and method has its own mask bit (the masks decide type and method matching).
@Test func maskBitsAreDistinct() {
    #expect(Set(DNRResourceType.allCases.map(\.bit)).count == DNRResourceType.allCases.count)
    #expect(Set(DNRRequestMethod.allCases.map(\.bit)).count == DNRRequestMethod.allCases.count)
    #expect(DNRResourceType.defaultMask & DNRResourceType.mainFrame.bit == 0)
}
