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

@Test func builtInRulesTranslateToTwoRulesEach() throws {
    let translation = ContentBlockerTranslator.translate([BuiltInRules.ruleset])
    #expect(translation.errors.isEmpty)
    // sub_frame goes to its own document/child-frame rule; the rest share one rule.
    #expect(translation.rules.count == 2 * AdvertisingDomains.all.count)
    let first = try #require(translation.rules.first)
    #expect(first.action.type == .block)
    #expect(first.trigger.resourceType == [.document])
    #expect(first.trigger.loadContext == [.childFrame])
    let second = translation.rules[1]
    #expect(Set(second.trigger.resourceType ?? []) == [.font, .image, .media, .other, .ping, .script, .styleSheet, .websocket, .fetch])
    #expect(second.trigger.loadContext == nil)
    #expect(translation.rules.allSatisfy { $0.trigger.loadContext != [.topFrame] })
}

@Test func allowSortsAfterBlockAsIgnorePreviousRules() throws {
    let rules = [
        DNRRule(id: 1, priority: 2, condition: DNRRuleCondition(urlFilter: "/ok/"), action: DNRRuleAction(type: .allow)),
        DNRRule(id: 2, priority: 1, condition: DNRRuleCondition(urlFilter: "||ads.example^"), action: DNRRuleAction(type: .block)),
    ]
    let translation = ContentBlockerTranslator.translate([DNRRuleset(id: "_dynamic", source: .dynamic, rules: rules)])
    #expect(translation.origins.map(\.ruleID) == [2, 2, 1, 1])
    #expect(translation.rules.last?.action.type == .ignorePreviousRules)
    let evaluator = try ContentBlockerEvaluator(rules: translation.rules)
    let top = try #require(DNRURL("https://news.example/"))
    let load = { (url: String) in
        ContentBlockerRequest(url: DNRURL(url)!, resourceType: .script, isTopFrameLoad: true, topURL: top, frameURL: top)
    }
    #expect(evaluator.decide(load("https://ads.example/a.js")).isBlocked)
    #expect(!evaluator.decide(load("https://ads.example/ok/a.js")).isBlocked)
}

@Test func domainsBecomeStarPrefixedIfDomainAndInitiatorsFrameURL() throws {
    let rule = DNRRule(
        id: 1, condition: DNRRuleCondition(urlFilter: "ads", initiatorDomains: ["news.example"], excludedInitiatorDomains: ["m.news.example"],
                                           requestDomains: ["cdn.example"]),
        action: DNRRuleAction(type: .block))
    let converted = ContentBlockerTranslator.convert(rule)
    let main = try #require(converted.first { $0.action.type == .block && $0.trigger.loadContext == nil })
    #expect(main.trigger.ifDomain == ["*cdn.example"])
    #expect(main.trigger.ifFrameURL == ["^[^:]+://+([^:/]+\\.)?news\\.example/.*"])
    let exclusion = try #require(converted.last)
    #expect(exclusion.action.type == .ignorePreviousRules)
    #expect(exclusion.trigger.ifFrameURL == ["^[^:]+://+([^:/]+\\.)?m\\.news\\.example/.*"])
}

@Test func upgradeSchemeGetsAnIgnorePreviousTwin() {
    let rule = DNRRule(id: 1, condition: DNRRuleCondition(urlFilter: "||site.example^", resourceTypes: [.script]),
                       action: DNRRuleAction(type: .upgradeScheme))
    #expect(ContentBlockerTranslator.convert(rule).map(\.action.type) == [.ignorePreviousRules, .makeHTTPS])
}

@Test func encodesWebKitKeys() throws {
    let translation = ContentBlockerTranslator.translate([BuiltInRules.ruleset])
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let text = String(decoding: try encoder.encode(translation.rules[0]), as: UTF8.self)
    #expect(text.contains("\"url-filter\""))
    #expect(text.contains("\"load-context\":[\"child-frame\"]"))
    #expect(text.contains("\"resource-type\":[\"document\"]"))
}

@Test func requestDomainsAloneTestTheRequestHostAsCurrentWebKitDoes() throws {
    // A source block as ADV installs it: the host and its subdomains, every type but main_frame.
    let rule = DNRRule(id: 1000, priority: 1, condition: DNRRuleCondition(requestDomains: ["ads.example", "tracker.test"], excludedResourceTypes: [.mainFrame]),
                       action: DNRRuleAction(type: .block))
    let converted = ContentBlockerTranslator.convert(rule)
    #expect(converted.allSatisfy { $0.trigger.ifDomain == nil })
    #expect(Set(converted.map(\.trigger.urlFilter)) == ["^[^:]+://+([^:/]+\\.)?ads\\.example[:/]", "^[^:]+://+([^:/]+\\.)?tracker\\.test[:/]"])
    let evaluator = try ContentBlockerEvaluator(rules: converted)
    let page = try #require(DNRURL("https://recipes.example/soup"))
    func decide(_ url: String, _ type: ContentBlockerResourceType = .image) throws -> Bool {
        evaluator.decide(ContentBlockerRequest(url: try #require(DNRURL(url)), resourceType: type, isTopFrameLoad: true, topURL: page, frameURL: page)).isBlocked
    }
    #expect(try decide("https://ads.example/banner.png"))
    #expect(try decide("https://cdn.ads.example/creative.png"))
    #expect(try decide("https://ads.example:8443/x.js", .script))
    #expect(try !decide("https://notads.example/photo.png"))
    #expect(try !decide("https://ads.example.evil.test/x.png"))
    let navigation = ContentBlockerRequest(url: try #require(DNRURL("https://ads.example/")), resourceType: .document, isTopFrameLoad: true,
                                           topURL: try #require(DNRURL("https://ads.example/")), frameURL: nil)
    #expect(!evaluator.decide(navigation).isBlocked)
}
