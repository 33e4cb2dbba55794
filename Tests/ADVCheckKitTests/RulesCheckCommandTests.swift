import ADVCheckKit
import CommandLineKit
import Foundation
import TestSupport
import Testing

/// `adv-check rules check`, and `show`/`validate` refusing selectors that are not CSS.
@Suite struct RulesCheckCommandTests {
    static let page = Support.fixtureURL("rule-assistance/check-page.html").path
    static let caveat = "One page does not prove global redundancy: other pages of the site, or content that loads later, may differ."

    func run(_ arguments: [String]) -> (status: Int32, out: String, err: String) {
        let output = CommandOutput()
        let status = ADVCheck.run(["rules"] + arguments, output: output)
        return (status, output.standardOutput, output.standardError)
    }

    func write(_ json: String) throws -> String {
        let url = try Support.temporaryDirectory().appendingPathComponent("rules.json")
        try Data(json.utf8).write(to: url)
        return url.path
    }

    /// Four rules of shop.example (the page's host: one a duplicate, one invalid), one of news.example.
    func sample() throws -> String {
        try write(#"""
            {"format":"adv-personal-rules","version":1,"rules":[
            {"id":"a","hostname":"shop.example","selector":".story","modifiedAt":1,"deleted":false},
            {"id":"b","hostname":"shop.example","selector":"main > article","modifiedAt":1,"deleted":false},
            {"id":"c","hostname":"shop.example","selector":"div[","modifiedAt":1,"deleted":false},
            {"id":"d","hostname":"shop.example","selector":" .story","modifiedAt":1,"deleted":false},
            {"id":"e","hostname":"news.example","selector":".story","modifiedAt":1,"deleted":false},
            {"id":"f","hostname":"shop.example","selector":"#gone","modifiedAt":1,"deleted":true}]}
            """#)
    }

    @Test func checksAgainstThePageOfItsHostname() throws {
        let file = try sample()
        let result = run(["check", file, "--page", Self.page])
        #expect(result.status == 1, "findings: exit 1")
        #expect(result.err.isEmpty)
        // Live rules in the store's order (hostname, selector, id); e is news.example's, not the page's.
        #expect(result.out.split(separator: "\n").map(String.init) == [
            "\(file): 5 rules checked, 4 against \(Self.page) (shop.example): 4 findings",
            "duplicate: rule a on shop.example: '.story' is the same selector as rule d (' .story') on the same hostname; one of them can be removed.",
            "invalid-syntax: rule c on shop.example: 'div[' is not a valid selector: '[' is not closed (at character 4). ADV never applies it; correct or remove it.",
            "overlap: rule b on shop.example: on \(Self.page), 'main > article' matches the same 2 elements as rule d (' .story'). \(Self.caveat)",
            "overlap: rule b on shop.example: on \(Self.page), 'main > article' matches the same 2 elements as rule a ('.story'). \(Self.caveat)",
        ])
    }

    @Test func withoutAPageOnlyTheRulesThemselvesAreChecked() throws {
        let file = try sample()
        let result = run(["check", file])
        #expect(result.status == 1)
        #expect(result.out.hasPrefix("\(file): 5 rules checked: 2 findings\nduplicate: rule a on shop.example"))
        #expect(!result.out.contains("overlap") && !result.out.contains("no-matches"))
    }

    @Test func oneHostnameWithoutFindingsExitsZero() throws {
        let file = try sample()
        let result = run(["check", file, "--hostname", "News.Example", "--page", Self.page])
        #expect(result.status == 0)
        #expect(result.out == "\(file): 1 rule checked, 0 against \(Self.page) (shop.example): 0 findings\n")
    }

    @Test func moreThan80LiveRulesAreRefusedWithTheWayOut() throws {
        let records = (0..<81).map { #"{"id":"r\#($0)","hostname":"shop.example","selector":".slot-\#($0)","modifiedAt":1,"deleted":false}"# }
        let file = try write(#"{"format":"adv-personal-rules","version":1,"rules":["# + records.joined(separator: ",\n") + "]}")
        let result = run(["check", file])
        #expect(result.status == 2)
        #expect(result.err == "adv-check: \(file): 81 live rules; a check takes at most 80 at a time: check one site with --hostname HOST\n")
        #expect(result.out.isEmpty)
    }

    @Test(arguments: [
        (["check"], "adv-check: 'rules check' needs a FILE (see 'adv-check rules check --help')\n"),
        (["check", "a.json", "b.json"], nil),
        (["check", "x.json", "--pgae", "p.html"], "adv-check: unknown option '--pgae' for 'adv-check rules check'; did you mean '--page'? (see 'adv-check rules check --help')\n"),
        (["check", "/no/such/rules.json"], "adv-check: /no/such/rules.json: read failed: no such file or directory\n"),
    ] as [([String], String?)])
    func badArgumentsExitTwoWithOneLine(arguments: [String], message: String?) {
        let result = run(arguments)
        #expect(result.status == 2)
        #expect(result.out.isEmpty)
        if let message { #expect(result.err == message) } else { #expect(result.err.hasPrefix("adv-check: ") && result.err.hasSuffix("(see 'adv-check rules check --help')\n")) }
    }

    @Test func aMissingPageOrBadHostnameNamesIt() throws {
        let file = try sample()
        let missing = run(["check", file, "--page", "/no/such/page.html"])
        #expect(missing.status == 2)
        #expect(missing.err == "adv-check: /no/such/page.html: cannot read file (missing or unreadable)\n")
        let host = run(["check", file, "--hostname", "exa mple.com"])
        #expect(host.status == 2)
        #expect(host.err.hasPrefix("adv-check: --hostname 'exa mple.com' is not a hostname: "))
        #expect(missing.out.isEmpty && host.out.isEmpty)
    }

    @Test func aBadRulesFileNamesFileAndKeyPath() throws {
        let file = try write(#"{"format":"adv-personal-rules","version":1,"rules":[{"id":"a","hostname":"Shop.example","selector":".x","modifiedAt":1,"deleted":false}]}"#)
        let result = run(["check", file, "--page", Self.page])
        #expect(result.status == 2)
        #expect(result.err == "adv-check: \(file): rules[0].hostname: hostname 'Shop.example' is not normalized; write 'shop.example'\n")
    }

    @Test func validateAndShowReportSelectorsThatAreNotCSS() throws {
        let file = try sample()
        let expected = "adv-check: \(file): rules[2].selector: 'div[' is not a valid selector: '[' is not closed (at character 4)\n"
        let validate = run(["validate", file])
        #expect(validate.status == 2)
        #expect(validate.err == expected)
        #expect(validate.out.isEmpty)
        let show = run(["show", file])
        #expect(show.status == 2)
        #expect(show.err == expected)
        #expect(show.out.contains("  div[    [c, "), "the listing is still printed")
        // The reference document has only valid selectors.
        #expect(run(["validate", Support.fixtureURL("rules/personal-rules-v1.json").path]).status == 0)
    }
}
