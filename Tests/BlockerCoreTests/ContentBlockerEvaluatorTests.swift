import Testing
@testable import BlockerCore

@Test func cssDisplayNoneSelectorsFollowRuleOrder() throws {
    let rules = [
        ContentBlockerRule(trigger: ContentBlockerTrigger(urlFilter: ".*"), action: ContentBlockerAction(type: .cssDisplayNone, selector: ".ad")),
        ContentBlockerRule(trigger: ContentBlockerTrigger(urlFilter: ".*", ifDomain: ["*news.example"]),
                           action: ContentBlockerAction(type: .cssDisplayNone, selector: "#sidebar-ad")),
        ContentBlockerRule(trigger: ContentBlockerTrigger(urlFilter: ".*", ifDomain: ["shop.example"]),
                           action: ContentBlockerAction(type: .ignorePreviousRules)),
        ContentBlockerRule(trigger: ContentBlockerTrigger(urlFilter: "^https://shop\\.example/cart"),
                           action: ContentBlockerAction(type: .cssDisplayNone, selector: ".upsell")),
    ]
    let evaluator = try ContentBlockerEvaluator(rules: rules)
    #expect(evaluator.cssDisplayNoneSelectors(pageURL: DNRURL("https://www.news.example/a")!) == [".ad", "#sidebar-ad"])
    #expect(evaluator.cssDisplayNoneSelectors(pageURL: DNRURL("https://shop.example/cart")!) == [".upsell"])
    #expect(evaluator.cssDisplayNoneSelectors(pageURL: DNRURL("https://other.example/")!) == [".ad"])
}

@Test func loadTypeAndContextAreRelativeToTheMainDocument() throws {
    let rules = [ContentBlockerRule(trigger: ContentBlockerTrigger(urlFilter: "track", loadType: [.thirdParty], loadContext: [.childFrame]),
                                    action: ContentBlockerAction(type: .block))]
    let evaluator = try ContentBlockerEvaluator(rules: rules)
    let top = DNRURL("https://news.example/")!
    func load(_ url: String, top isTop: Bool) -> ContentBlockerRequest {
        ContentBlockerRequest(url: DNRURL(url)!, resourceType: .image, isTopFrameLoad: isTop, topURL: top, frameURL: top)
    }
    #expect(evaluator.decide(load("https://t.example/track", top: false)).isBlocked)
    #expect(!evaluator.decide(load("https://t.example/track", top: true)).isBlocked)
    #expect(!evaluator.decide(load("https://cdn.news.example/track", top: false)).isBlocked)
}

@Test func invalidRegexIsReportedWithItsRule() {
    let rules = [ContentBlockerRule(trigger: ContentBlockerTrigger(urlFilter: "a|b"), action: ContentBlockerAction(type: .block))]
    #expect(throws: InputError.self) { try ContentBlockerEvaluator(rules: rules) }
}

/// The built-in rules decide the same way in both engines on plain ad and non-ad loads
/// (the translation's purpose), including frames: sub_frame blocked, main_frame not.
@Test(arguments: [
    ("https://ad.doubleclick.net/x.js", DNRResourceType.script, true),
    ("https://ad.doubleclick.net/frame", .subFrame, true),
    ("https://www.doubleclick.net/", .mainFrame, false),
    ("https://notdoubleclick.net/x.js", .script, false),
    ("https://news.example/x.js", .script, false),
])
func builtInRulesAgree(url: String, type: DNRResourceType, blocked: Bool) throws {
    let comparator = try DecisionComparator(rulesets: [BuiltInRules.ruleset])
    let request = try DNRRequest(url: url, type: type, initiator: type == .mainFrame ? nil : "https://news.example",
                                 frames: type == .mainFrame ? [] : ["https://news.example/"])
    let comparison = comparator.compare(request)
    #expect(comparison.dnr.isBlocked == blocked)
    #expect(comparison.contentBlocker.isBlocked == blocked)
    #expect(comparison.agrees)
}

/// `abc^|` at the end of the URL: Chromium blocks, WebKit does not, and the reason is named.
@Test func separatorAtEndIsAKnownDivergence() throws {
    let rule = DNRRule(id: 1, condition: DNRRuleCondition(urlFilter: "abc^|"), action: DNRRuleAction(type: .block))
    let comparator = try DecisionComparator(rulesets: [DNRRuleset(id: "_dynamic", source: .dynamic, rules: [rule])])
    let atEnd = comparator.compare(try DNRRequest(url: "https://x.example/abc", type: .image, initiator: "https://x.example"))
    #expect(atEnd.dnr.isBlocked)
    #expect(!atEnd.contentBlocker.isBlocked)
    #expect(atEnd.knownDivergence == .separatorAtEnd)
    let withSlash = comparator.compare(try DNRRequest(url: "https://x.example/abc/", type: .image, initiator: "https://x.example"))
    #expect(withSlash.agrees)
}
