import Foundation
import RuleAssistance
import Testing

@Suite struct RuleCheckTests {
    static let table = CheckCases.shared

    @Test func theTableIsLargeEnough() {
        let selectors = Set(Self.table.runs.flatMap(\.cases).map(\.selector))
        #expect(selectors.count >= 60)
        #expect(Self.table.runs.allSatisfy { $0.cases.count <= RuleCheck.maxRules })
        let kinds = Set(Self.table.runs.flatMap(\.cases).flatMap(\.findings).map { String($0.prefix { $0 != " " }) })
        #expect(kinds == Set(Finding.Kind.allCases.map(\.rawValue)), "every kind of finding has a case")
    }

    @Test(arguments: CheckCases.shared.runs.map(\.name))
    func everyRunGivesTheTablesFindings(run name: String) throws {
        let run = try #require(Self.table.runs.first { $0.name == name })
        let page = RulePage(name: Self.table.pageName, html: Self.table.pageHTML)
        let findings = try RuleCheck.check(run.cases.map(\.rule), page: page)
        for item in run.cases {
            let got = findings.filter { $0.rule.id == item.id }.map(CheckCases.line)
            #expect(got == item.findings, "\(item)")
        }
        // Findings come in the order of the rules.
        let order = findings.map(\.rule.id)
        let expectedOrder = run.cases.flatMap { item in Array(repeating: item.id, count: item.findings.count) }
        #expect(order == expectedOrder)
    }

    @Test(arguments: CheckCases.shared.runs.flatMap(\.cases))
    func matchCountsOnThePage(_ item: CheckCases.Case) {
        let matcher = SelectorMatcher(tree: HTMLTree(html: Self.table.pageHTML))
        let count = (try? SelectorSyntax.parse(item.selector)).map { matcher.matches($0).count }
        #expect(count == item.matches, "\(item)")
    }

    @Test func everyFindingNamesItsRuleAndPageFindingsCarryTheCaveat() throws {
        let run = try #require(Self.table.runs.first { $0.name == "groups" })
        let findings = try RuleCheck.check(run.cases.map(\.rule), page: RulePage(name: "check-page.html", html: Self.table.pageHTML))
        #expect(!findings.isEmpty)
        for finding in findings {
            #expect(finding.message.hasPrefix("rule \(finding.rule.id) on \(finding.rule.hostname): "))
            #expect(finding.message.hasSuffix(Finding.pageCaveat) == finding.isPageBased, "\(finding.message)")
            if let other = finding.other { #expect(finding.message.contains("rule \(other.id) ")) }
        }
        let overlap = try #require(findings.first { $0.rule.id == "o2" })
        #expect(overlap.message == "rule o2 on overlap.example: on check-page.html, 'article.featured' matches only elements rule o1 ('.story') also matches (1 of its 2). " + Finding.pageCaveat)
    }

    @Test func withoutAPageThereAreNoPageFindings() throws {
        let cases = try #require(Self.table.runs.first).cases
        let findings = try RuleCheck.check(cases.map(\.rule))
        #expect(!findings.contains { $0.isPageBased })
        let expected = cases.flatMap { item in item.findings.filter { !$0.hasPrefix("no-matches") && !$0.hasPrefix("overlap") }.map { "\(item.id) \($0)" } }
        #expect(findings.map { "\($0.rule.id) \(CheckCases.line($0))" } == expected)
    }

    @Test func aPageOfOneHostnameChecksOnlyThatHostnamesRules() throws {
        let rules = [CheckedRule(id: "a", hostname: "shop.example", selector: ".nothing"),
                     CheckedRule(id: "b", hostname: "news.example", selector: ".nothing")]
        let findings = try RuleCheck.check(rules, page: RulePage(name: "p", html: Self.table.pageHTML, hostname: "shop.example"))
        #expect(findings.map(\.rule.id) == ["a"])
    }

    @Test func moreThan80RulesAreRefused() throws {
        let rules = (0...80).map { CheckedRule(id: "r\($0)", hostname: "example.com", selector: ".a\($0)") }
        #expect(throws: RuleCheckError.tooManyRules(count: 81)) { try RuleCheck.check(rules) }
        #expect(try RuleCheck.check(Array(rules.prefix(80))).isEmpty)
        #expect("\(RuleCheckError.tooManyRules(count: 81))" == "81 rules given; a check takes at most 80 rules at a time (check one hostname, or fewer rules)")
    }
}

@Suite struct SelectorTextTests {
    @Test(arguments: [
        ("  ul  >  li.promo ", "ul>li.promo"),
        ("a , b", "a,b"),
        ("[ data-x ^= \"a  b\" ]", "[data-x^=\"a  b\"]"),
        (":not( .a )  .b", ":not(.a) .b"),
        ("li:nth-child( 2n + 1 )", "li:nth-child(2n+1)"),
        (".Ad", ".Ad"),
    ])
    func normalizedText(_ input: String, _ expected: String) {
        #expect(SelectorText.normalized(input) == expected)
    }
}
