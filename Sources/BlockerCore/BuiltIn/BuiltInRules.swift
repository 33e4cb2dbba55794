/// The 14 static DNR rules ADV ships, made from `AdvertisingDomains.all`.
public enum BuiltInRules {
    /// The manifest `rule_resources` id of the built-in ruleset.
    public static let rulesetID = "adv_builtin"
    /// The ruleset's file name inside the extension.
    public static let fileName = "networkRules.json"

    /// Every resource type except `main_frame`, spelled out rather than left to the
    /// default so the file says what it does, and so Safari and Chromium read the
    /// same set. Types WebKit has no mapping for (object, csp_report, webtransport,
    /// webbundle) are still listed: Chromium honours them and WebKit drops unknown
    /// types when translating (_WKWebExtensionDeclarativeNetRequestRule.mm,
    /// removeInvalidResourceTypesForKey).
    public static let resourceTypes: [DNRResourceType] = DNRResourceType.allCases.filter { $0 != .mainFrame }

    /// One block rule per domain: `||domain^`, ids 1...14, priority 1.
    public static var rules: [DNRRule] {
        AdvertisingDomains.all.enumerated().map { index, domain in
            DNRRule(
                id: index + 1,
                priority: 1,
                condition: DNRRuleCondition(urlFilter: "||\(domain)^", resourceTypes: resourceTypes),
                action: DNRRuleAction(type: .block))
        }
    }

    /// The built-in rules as a static ruleset (the manifest's first rule resource).
    public static var ruleset: DNRRuleset {
        DNRRuleset(id: rulesetID, source: .staticRuleset(index: 0), rules: rules)
    }
}
