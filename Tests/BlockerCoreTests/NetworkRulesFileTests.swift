import Foundation
import TestSupport
import Testing
@testable import BlockerCore

/// The package root, found from this file's path (Tests/BlockerCoreTests/...).
/// The repository root (shared test support finds it once for every test target).
let packageRoot = Support.packageRoot

/// The committed WebExtension/networkRules.json must be exactly what `adv-check export` writes
/// from AdvertisingDomains; regenerate it with `swift run adv-check export WebExtension/networkRules.json`.
@Test func committedRulesetMatchesSwiftSource() throws {
    let committed = try Data(contentsOf: packageRoot.appendingPathComponent("WebExtension/networkRules.json"))
    #expect(committed == (try DNRRuleset.encodeRules(BuiltInRules.rules)),
            "WebExtension/networkRules.json is stale: run 'swift run adv-check export WebExtension/networkRules.json'")
    let decoded = try DNRRuleset.decodeRules(from: committed, file: "networkRules.json")
    #expect(decoded == BuiltInRules.rules)
}

/// The spec's built-in ruleset: 14 block rules, one per domain, `||domain^`, never main_frame.
@Test func builtInRulesShape() {
    let rules = BuiltInRules.rules
    #expect(rules.count == 14)
    #expect(Set(AdvertisingDomains.all).count == 14)
    #expect(rules.map(\.id) == Array(1...14))
    for (rule, domain) in zip(rules, AdvertisingDomains.all) {
        #expect(rule.action.type == .block)
        #expect(rule.condition.urlFilter == "||\(domain)^")
        #expect(rule.condition.resourceTypes?.contains(.mainFrame) == false)
        #expect(Set(rule.condition.resourceTypes ?? []).count == DNRResourceType.allCases.count - 1)
        #expect((try? Hostname.normalize(domain)) == domain)
    }
}

@Test func manifestDeclaresTheRuleset() throws {
    let data = try Data(contentsOf: packageRoot.appendingPathComponent("WebExtension/manifest.json"))
    let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(manifest["manifest_version"] as? Int == 3)
    #expect(manifest["name"] as? String == "ADV")
    let permissions = manifest["permissions"] as? [String] ?? []
    #expect(Set(permissions).isSuperset(of: ["storage", "declarativeNetRequest", "declarativeNetRequestFeedback"]))
    #expect(manifest["host_permissions"] as? [String] == ["http://*/*", "https://*/*"])
    let dnr = manifest["declarative_net_request"] as? [String: Any]
    let resources = dnr?["rule_resources"] as? [[String: Any]] ?? []
    let builtin = try #require(resources.first { $0["id"] as? String == BuiltInRules.rulesetID })
    #expect(builtin["path"] as? String == BuiltInRules.fileName)
    #expect(builtin["enabled"] as? Bool == true)
}

@Test func decodingErrorsNameFileAndKeyPath() {
    let cases: [(String, String)] = [
        (#"[{"id":1,"action":{"type":"block"},"condition":{"resourceTypes":["img"]}}]"#, "[0].condition.resourceTypes[0]: unknown value 'img'; expected one of main_frame"),
        (#"[{"id":1,"action":{"type":"blok"},"condition":{}}]"#, "[0].action.type: unknown value 'blok'"),
        (#"[{"id":"1","action":{"type":"block"},"condition":{}}]"#, "[0].id: expected an integer"),
        (#"[{"id":1,"condition":{}}]"#, "[0].action: missing required key 'action'"),
        (#"[{"id":1,"action":{"type":"block"},"condition":{"urlfilter":"x"}}]"#, "[0].condition.urlfilter: unknown key 'urlfilter'; did you mean 'urlFilter'?"),
        (#"{"rules":[]}"#, "top level: Rules file must contain a list."),
        ("[\n{\"id\": 1,,}]", "rules.json:2:10: [0]: invalid json: expected a key in double quotes, found ','"),
    ]
    for (json, expected) in cases {
        do {
            _ = try DNRRuleset.decodeRules(from: Data(json.utf8), file: "rules.json")
            Issue.record("expected an error for \(json)")
        } catch let error as InputError {
            #expect(error.description.contains(expected), "\(error)")
            #expect(error.file == "rules.json")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
