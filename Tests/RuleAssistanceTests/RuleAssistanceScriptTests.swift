import Foundation
import TestSupport
import Testing
import WebRuntime

/// The popup's JavaScript (`WebExtension/shared/rule-assistance.js`, with the selector validation
/// it builds on) run in the harness engine against the table's page: the same table as
/// ``RuleCheckTests``, with the harness engine's disagreements stated in the table.
@Suite struct RuleAssistanceScriptTests {
    static let table = CheckCases.shared

    static func script(_ name: String) throws -> String {
        let root = Support.fixtures.deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("WebExtension/shared/\(name)"), encoding: .utf8)
    }

    /// The page loaded with the two scripts as a content script; its content world.
    static func world() throws -> (WebSession, Page, World) {
        let source = try script("selector-validation.js") + "\n" + script("rule-assistance.js")
        let (session, page) = try Support.load(table.pageHTML, url: "https://shop.example/deals", contentScripts: [Support.contentScript(source)])
        return (session, page, try page.contentWorld(for: "test"))
    }

    static func json(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value), as: UTF8.self)
    }

    @Test(arguments: CheckCases.shared.runs.map(\.name))
    func everyRunGivesTheTablesFindings(run name: String) throws {
        let run = try #require(Self.table.runs.first { $0.name == name })
        let (_, _, world) = try Self.world()
        let rules = try Self.json(run.cases.map { ["id": $0.id, "hostname": $0.hostname, "selector": $0.selector] })
        let reply = try Support.eval(world, "JSON.stringify(ADVRuleAssistance.check(\(rules), { document, name: 'check-page.html' }))") as? String
        let object = try JSONSerialization.jsonObject(with: Data(try #require(reply).utf8)) as? [String: Any]
        #expect(object?["ok"] as? Bool == true)
        let findings = try #require(object?["findings"] as? [[String: Any]])
        for item in run.cases {
            let got = findings.filter { ($0["rule"] as? [String: Any])?["id"] as? String == item.id }.map(CheckCases.line)
            #expect(got == (item.engineFindings ?? item.findings), "\(item)\(item.engineWhy.map { " (engine: \($0))" } ?? "")")
        }
        for finding in findings {
            let rule = finding["rule"] as? [String: Any]
            let message = finding["message"] as? String ?? ""
            #expect(message.hasPrefix("rule \(rule?["id"] as? String ?? "?") on \(rule?["hostname"] as? String ?? "?"): "))
            let pageBased = ["no-matches", "overlap"].contains(finding["kind"] as? String ?? "")
            #expect(message.hasSuffix("One page does not prove global redundancy: other pages of the site, or content that loads later, may differ.") == pageBased)
        }
    }

    @Test func matchCountsOnThePage() throws {
        let (_, _, world) = try Self.world()
        for item in Self.table.runs.flatMap(\.cases) {
            let selector = try Self.json([item.selector])
            let count = try Support.eval(world, """
                (() => { const s = \(selector)[0]; if (ADVSelectorValidation.validate(s).error) return null; return document.querySelectorAll(s).length; })()
                """) as? Double
            let expected: Int? = item.engineMatches ?? item.matches
            #expect(count.map { Int($0) } == expected, "\(item)\(item.engineWhy.map { " (engine: \($0))" } ?? "")")
        }
    }

    @Test func moreThan80RulesAreRefused() throws {
        let (_, _, world) = try Self.world()
        let reply = try Support.eval(world, """
            JSON.stringify(ADVRuleAssistance.check(Array.from({ length: 81 }, (_, i) => ({ id: 'r' + i, hostname: 'example.com', selector: '.a' + i }))))
            """) as? String
        #expect(reply == #"{"ok":false,"error":"81 rules given; a check takes at most 80 rules at a time (check one hostname, or fewer rules)"}"#)
    }

    @Test func normalizationAgreesWithSwift() throws {
        let (_, _, world) = try Self.world()
        let samples = ["  ul  >  li.promo ", "a , b", "[ data-x ^= \"a  b\" ]", ":not( .a )  .b", "div\\  p", "li:nth-child( 2n + 1 )"]
        for sample in samples {
            let js = try Support.eval(world, "ADVRuleAssistance.normalized(\(try Self.json([sample]))[0])") as? String
            #expect(js == RuleAssistanceNormalization.swift(sample), "\(sample)")
        }
    }
}
