import Foundation
import Testing
@testable import BlockerCore

/// urlFilter → url-filter by WebKit's table (dnr-facts; _WKWebExtensionDeclarativeNetRequestRule.mm):
/// `||` → `^[^:]+://+([^:/]+\.)?`, `|` → `^`/`$`, `*` → `.*`, `^` → `[^a-zA-Z0-9_.%-]`, escapes.
@Test(arguments: [
    ("||doubleclick.net^", "^[^:]+://+([^:/]+\\.)?doubleclick\\.net[^a-zA-Z0-9_.%-]"),
    ("|https://ads.", "^https://ads\\."),
    ("/banner/*.gif|", "/banner/.*\\.gif$"),
    ("abc^|", "abc[^a-zA-Z0-9_.%-]$"),
    ("a?b+(c)", "a\\?b\\+\\(c\\)"),
])
func urlFilterToRegex(filter: String, regex: String) {
    #expect(ContentBlockerTranslator.regex(forURLFilter: filter) == regex)
}

/// Decides `url` of `type` on a top-level page of `page` against translated rules.
private func blocks(_ rules: [ContentBlockerRule], _ url: String, _ type: ContentBlockerResourceType = .image,
                    page: String = "https://recipes.example/soup", method: String = "get") throws -> Bool {
    let evaluator = try ContentBlockerEvaluator(rules: rules)
    let top = try #require(DNRURL(page))
    return evaluator.decide(ContentBlockerRequest(url: try #require(DNRURL(url)), resourceType: type, isTopFrameLoad: true,
                                                  topURL: top, frameURL: top, method: method)).isBlocked
}

@Test func builtInRulesTranslateToOneRuleEachWithChildDocuments() throws {
    let translation = ContentBlockerTranslator.translate([BuiltInRules.ruleset])
    #expect(translation.errors.isEmpty)
    // Current WebKit: sub_frame is the child-document type in the same rule, no load-context.
    #expect(translation.rules.count == AdvertisingDomains.all.count)
    let first = try #require(translation.rules.first)
    #expect(first.action.type == .block)
    #expect(first.trigger.loadContext == nil)
    #expect(Set(first.trigger.resourceType ?? []) == [.childDocument, .font, .image, .media, .other, .ping, .script, .styleSheet, .websocket, .fetch])
    #expect(translation.rules.allSatisfy { $0.trigger.resourceType?.contains(.topDocument) == false })
}

@Test func allowSortsBeforeBlockAsIgnoreFollowingRules() throws {
    let rules = [
        DNRRule(id: 2, priority: 1, condition: DNRRuleCondition(urlFilter: "||ads.example^"), action: DNRRuleAction(type: .block)),
        DNRRule(id: 1, priority: 2, condition: DNRRuleCondition(urlFilter: "/ok/"), action: DNRRuleAction(type: .allow)),
    ]
    let translation = ContentBlockerTranslator.translate([DNRRuleset(id: "_dynamic", source: .dynamic, rules: rules)])
    // Descending priority: the allow first, then the block it overrides.
    #expect(translation.origins.map(\.ruleID) == [1, 2])
    #expect(translation.rules.first?.action.type == .ignoreFollowingRules)
    #expect(try blocks(translation.rules, "https://ads.example/a.js", .script))
    #expect(try !blocks(translation.rules, "https://ads.example/ok/a.js", .script))
}

@Test func equalPriorityOrdersByActionRank() {
    let rules = [DNRRuleAction.Kind.modifyHeaders, .redirect, .block, .allow, .upgradeScheme, .allowAllRequests].enumerated().map { index, kind in
        DNRRule(id: index + 1, condition: DNRRuleCondition(urlFilter: "x", resourceTypes: kind == .allowAllRequests ? [.mainFrame] : nil),
                action: DNRRuleAction(type: kind, redirect: kind == .redirect ? DNRRedirect(url: "https://y.example/") : nil,
                                      requestHeaders: kind == .modifyHeaders ? [DNRModifyHeaderInfo(header: "dnt", operation: .set, value: "1")] : nil))
    }
    let translation = ContentBlockerTranslator.translate([DNRRuleset(id: "s", source: .staticRuleset(index: 0), rules: rules)])
    #expect(translation.errors.isEmpty)
    #expect(translation.origins.map(\.action).reduce(into: [DNRRuleAction.Kind]()) { if $0.last != $1 { $0.append($1) } }
            == [.allow, .allowAllRequests, .block, .upgradeScheme, .redirect, .modifyHeaders])
}

@Test func initiatorListsBecomeFrameURLsWithAnExclusionTwinFirst() throws {
    let rule = DNRRule(
        id: 1, condition: DNRRuleCondition(urlFilter: "ads", initiatorDomains: ["news.example"], excludedInitiatorDomains: ["m.news.example"]),
        action: DNRRuleAction(type: .block))
    let converted = ContentBlockerTranslator.convert(rule)
    #expect(converted.map(\.action.type) == [.ignoreFollowingRules, .block])
    #expect(converted[0].trigger.ifFrameURL == ["^[^:]+://+([^:/]+\\.)?m\\.news\\.example/.*"])
    #expect(converted[1].trigger.ifFrameURL == ["^[^:]+://+([^:/]+\\.)?news\\.example/.*"])
    #expect(converted[1].trigger.unlessFrameURL == nil)
    let deprecated = DNRRule(id: 2, condition: DNRRuleCondition(urlFilter: "ads", domains: ["news.example"]), action: DNRRuleAction(type: .block))
    #expect(ContentBlockerTranslator.convert(deprecated).first?.trigger.ifDomain == ["*news.example"])
}

@Test func upgradeSchemeIsFollowedByAnIgnoreFollowingTwin() {
    let rule = DNRRule(id: 1, condition: DNRRuleCondition(urlFilter: "||site.example^", resourceTypes: [.script]),
                       action: DNRRuleAction(type: .upgradeScheme))
    #expect(ContentBlockerTranslator.convert(rule).map(\.action.type) == [.makeHTTPS, .ignoreFollowingRules])
}

@Test func encodesWebKitKeys() throws {
    let rule = DNRRule(id: 1, condition: DNRRuleCondition(urlFilter: "||ads.example^", resourceTypes: [.mainFrame, .subFrame], requestMethods: [.post]),
                       action: DNRRuleAction(type: .block))
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let text = String(decoding: try encoder.encode(ContentBlockerTranslator.convert(rule)[0]), as: UTF8.self)
    #expect(text.contains("\"resource-type\":[\"top-document\",\"child-document\"]"))
    #expect(text.contains("\"request-method\":\"post\""))
    #expect(!text.contains("load-context"))
}

@Test func requestDomainsBecomeADomainAnchoredURLFilterPerDomain() throws {
    // A source block as ADV installs it: the host and its subdomains, every type but main_frame.
    let rule = DNRRule(id: 1000, priority: 1, condition: DNRRuleCondition(requestDomains: ["ads.example", "tracker.test"], excludedResourceTypes: [.mainFrame]),
                       action: DNRRuleAction(type: .block))
    let converted = ContentBlockerTranslator.convert(rule)
    #expect(converted.allSatisfy { $0.trigger.ifDomain == nil })
    // `||domain` with nothing after it (_combineRequestDomain), so the domain is a prefix of the host.
    #expect(converted.map(\.trigger.urlFilter) == ["^[^:]+://+([^:/]+\\.)?ads\\.example", "^[^:]+://+([^:/]+\\.)?tracker\\.test"])
    #expect(try blocks(converted, "https://ads.example/banner.png"))
    #expect(try blocks(converted, "https://cdn.ads.example/creative.png"))
    #expect(try blocks(converted, "https://ads.example:8443/x.js", .script))
    #expect(try !blocks(converted, "https://notads.example/photo.png"))
    // What Safari does and DNR does not: the text continues past the listed domain.
    #expect(try blocks(converted, "https://ads.example.evil.test/x.png"))
    #expect(try !blocks(converted, "https://ads.example/", .document))
}

/// `_combineRequestDomain:withURLFilter:`, case by case (the examples in WebKit's comments).
@Test(arguments: [
    ("com", nil, "||com"),
    ("com", ".com/foo/bar", "||.com/foo/bar"),
    ("foo.com", "foo.*/bar/baz", "||foo.com*/bar/baz"),
    ("foo.com", "bar-*.com^", "||bar-*foo.com^"),
    ("com", "||foo", "||foo*com"),
    ("com", "://www.", "://www.*com"),
    ("com", "://www.*/foo/bar", "://www.*com/foo/bar"),
    ("com", "/foo/bar", "||com*/foo/bar"),
    ("tracker.example", "collect", "||coltracker.examplect"),
] as [(String, String?, String)])
func requestDomainCombinesWithTheURLFilterAsWebKitDoes(domain: String, filter: String?, combined: String) {
    #expect(ContentBlockerTranslator.combine(requestDomain: domain, urlFilter: filter) == combined)
}

@Test func excludedRequestDomainsBecomeUnanchoredIgnoreFollowingRules() throws {
    let rule = DNRRule(id: 1, condition: DNRRuleCondition(urlFilter: "||x.com^", excludedRequestDomains: ["apple.com"]), action: DNRRuleAction(type: .block))
    let converted = ContentBlockerTranslator.convert(rule)
    #expect(converted.map(\.action.type) == [.ignoreFollowingRules, .block])
    #expect(converted[0].trigger.urlFilter == "apple\\.com")
    #expect(try blocks(converted, "https://x.com/a.png"))
    // The example: Chrome blocks it (the request host is x.com), Safari does not.
    #expect(try !blocks(converted, "https://x.com/?r=apple.com"))
    let translation = ContentBlockerTranslator.translate([DNRRuleset(id: "_dynamic", source: .dynamic, rules: [rule])])
    #expect(translation.exclusions == [0])
}

@Test func requestMethodsBecomeOneRulePerMethodAndExclusionsPrecedeThem() throws {
    let only = DNRRule(id: 1, condition: DNRRuleCondition(urlFilter: "/collect", requestMethods: [.post, .put]), action: DNRRuleAction(type: .block))
    let converted = ContentBlockerTranslator.convert(only)
    #expect(converted.map(\.trigger.requestMethod) == ["post", "put"])
    #expect(try blocks(converted, "https://t.example/collect", .fetch, method: "post"))
    #expect(try !blocks(converted, "https://t.example/collect", .fetch, method: "get"))
    let except = DNRRule(id: 2, condition: DNRRuleCondition(urlFilter: "/collect", excludedRequestMethods: [.get]), action: DNRRuleAction(type: .block))
    #expect(ContentBlockerTranslator.convert(except).map(\.action.type) == [.ignoreFollowingRules, .block])
    #expect(try !blocks(ContentBlockerTranslator.convert(except), "https://t.example/collect", .fetch, method: "get"))
}

@Test func allowAllRequestsIsATopURLOrAChildFrameURLRule() {
    let top = DNRRule(id: 1, condition: DNRRuleCondition(urlFilter: "||shop.example^", resourceTypes: [.mainFrame]), action: DNRRuleAction(type: .allowAllRequests))
    let frame = DNRRule(id: 2, condition: DNRRuleCondition(urlFilter: "||embed.example^", resourceTypes: [.subFrame]), action: DNRRuleAction(type: .allowAllRequests))
    let topRule = ContentBlockerTranslator.convert(top)
    #expect(topRule.count == 1)
    #expect(topRule[0].trigger.urlFilter == ".*")
    #expect(topRule[0].trigger.ifTopURL == ["^[^:]+://+([^:/]+\\.)?shop\\.example[^a-zA-Z0-9_.%-]"])
    #expect(topRule[0].trigger.resourceType == nil)
    let frameRule = ContentBlockerTranslator.convert(frame)
    #expect(frameRule[0].trigger.ifFrameURL == ["^[^:]+://+([^:/]+\\.)?embed\\.example[^a-zA-Z0-9_.%-]"])
    #expect(frameRule[0].trigger.loadContext == [.childFrame])
}

@Test func aRuleListingOnlyUnmappedTypesAppliesToEveryType() throws {
    let rule = DNRRule(id: 1, condition: DNRRuleCondition(urlFilter: "||plugin.example^", resourceTypes: [.object]), action: DNRRuleAction(type: .block))
    let converted = ContentBlockerTranslator.convert(rule)
    #expect(converted[0].trigger.resourceType == [])
    #expect(try blocks(converted, "https://plugin.example/movie.swf", .script))
}
