import ADVCheckKit
import CommandLineKit
import Foundation
import RuleStore
import TestSupport
import Testing

@Suite struct RulesCommandTests {
    /// What a run printed.
    struct Captured {
        let out: String
        let err: String
    }

    static let fixture = Support.fixtureURL("rules/personal-rules-v1.json").path

    /// Runs `adv-check rules <arguments>` as the executable does.
    func run(_ arguments: [String]) -> (Int32, Captured) {
        let output = CommandOutput()
        let status = ADVCheck.run(["rules"] + arguments, output: output)
        return (status, Captured(out: output.standardOutput, err: output.standardError))
    }

    func write(_ json: String, named name: String = "input.json") throws -> String {
        let url = try Support.temporaryDirectory().appendingPathComponent(name)
        try Data(json.utf8).write(to: url)
        return url.path
    }

    @Test func showGroupsLiveRulesByHostAndListsDeletionMarkers() {
        let (status, captured) = run(["show", Self.fixture])
        #expect(status == 0)
        #expect(captured.err.isEmpty)
        let lines = captured.out.split(separator: "\n").map(String.init)
        #expect(lines.first == "\(Self.fixture): 4 rules, 2 deletion markers, 971 bytes (0.2% of the 500000-byte limit)")
        #expect(lines.contains("news.example.com"))
        #expect(lines.contains("  #sidebar-ad    [0b7c5a1e-3f5d-4c4e-9a57-0d5f1e2b9c10, 2026-01-01T00:00:00.000Z]"))
        #expect(lines.contains("deletion markers"))
        #expect(lines.contains("  shop.example.net [id^=\"ad-slot-\"]    [legacy:local-42, deleted 2023-11-14T22:13:20.000Z]"))
    }

    @Test func validateReportsEachFileAndDuplicateSelectors() throws {
        let duplicate = try write(#"""
            {"format":"adv-personal-rules","version":1,"rules":[
            {"id":"a","hostname":"example.com","selector":".ad","modifiedAt":1,"deleted":false},
            {"id":"b","hostname":"example.com","selector":".ad","modifiedAt":2,"deleted":false}]}
            """#)
        let (status, captured) = run(["validate", Self.fixture, duplicate])
        #expect(status == 0)
        #expect(captured.out.contains("\(duplicate): 2 rules, 0 deletion markers"))
        #expect(captured.out.contains("  warning: selector '.ad' on example.com is saved 2 times (ids a, b)"))
    }

    @Test func mergeCombinesFilesWithTombstonesWinning() throws {
        let deletion = try write(#"""
            {"format":"adv-personal-rules","version":1,"rules":[
            {"id":"0b7c5a1e-3f5d-4c4e-9a57-0d5f1e2b9c10","hostname":"news.example.com","selector":"#sidebar-ad","modifiedAt":1767225600000,"deleted":true},
            {"id":"new","hostname":"example.com","selector":".new","modifiedAt":5,"deleted":false}]}
            """#)
        let (status, captured) = run(["merge", Self.fixture, deletion])
        #expect(status == 0)
        let merged = try RuleCodec.decode(Data(captured.out.utf8)).collection
        #expect(merged.count == 7)
        #expect(merged["0b7c5a1e-3f5d-4c4e-9a57-0d5f1e2b9c10"]?.deleted == true, "equal time: deletion wins")
    }

    @Test func mergeWritesOutputAtomically() throws {
        let output = try Support.temporaryDirectory().appendingPathComponent("merged.json").path
        let (status, captured) = run(["merge", Self.fixture, "--output", output])
        #expect(status == 0)
        #expect(captured.out.hasPrefix("\(output): 4 rules, 2 deletion markers"))
        #expect(FileManager.default.contents(atPath: output) == FileManager.default.contents(atPath: Self.fixture))
    }

    @Test(arguments: [
        (["nope"], "adv-check: unknown subcommand 'rules nope'; use show, validate, check, merge or bench (see 'adv-check rules --help')\n"),
        (["shwo", "x"], "adv-check: unknown subcommand 'rules shwo'; did you mean 'show'? (see 'adv-check rules --help')\n"),
        (["merge", "--bogus", "x"], "adv-check: unknown option '--bogus' for 'adv-check rules merge' (see 'adv-check rules merge --help')\n"),
        (["merge", "--outptu", "x"], "adv-check: unknown option '--outptu' for 'adv-check rules merge'; did you mean '--output'? (see 'adv-check rules merge --help')\n"),
        (["show"], "adv-check: 'rules show' needs at least one FILE (see 'adv-check rules show --help')\n"),
        (["bench", "--runs", "0"], "adv-check: --runs '0' must be a whole number from 1 to 10000\n"),
        (["validate", "/no/such/file.json"], "adv-check: /no/such/file.json: read failed: no such file or directory\n"),
    ])
    func usageErrorsExitTwoWithOneLine(arguments: [String], message: String) {
        let (status, captured) = run(arguments)
        #expect(status == 2)
        #expect(captured.err == message)
        #expect(captured.out.isEmpty)
    }

    @Test func badFileNamesFileAndKeyPathAndWritesNothing() throws {
        let bad = try write(#"""
            {"format":"adv-personal-rules","version":1,"rules":[
            {"id":"a","hostname":"example.com","selector":".ad","modifiedAt":1,"deleted":false},
            {"id":"b","hostname":"exa mple.com","selector":".ad","modifiedAt":1,"deleted":false}]}
            """#)
        let output = try Support.temporaryDirectory().appendingPathComponent("out.json").path
        let (status, captured) = run(["merge", Self.fixture, bad, "--output", output])
        #expect(status == 2)
        #expect(captured.err == "adv-check: \(bad): rules[1].hostname: invalid hostname 'exa mple.com': contains whitespace\n")
        #expect(captured.out.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func mergeOverTheLimitIsRefusedAndWritesNothing() throws {
        func file(_ range: Range<Int>) throws -> String {
            let records = range.map {
                Support.rule("id-\($0)", host: "www.example.com", selector: ".advert-slot-number-\($0)")
            }
            let data = RuleCodec.encode(RuleDocument(collection: RuleCollection(records)))
            let url = try Support.temporaryDirectory().appendingPathComponent("part.json")
            try data.write(to: url)
            return url.path
        }
        let output = try Support.temporaryDirectory().appendingPathComponent("out.json").path
        let (status, captured) = run(["merge", try file(0..<2_500), try file(2_500..<5_000), "--output", output])
        #expect(status == 2)
        #expect(captured.err.hasPrefix("adv-check: \(output): the rule collection encodes to "))
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func helpIsPrintedPerSubcommand() {
        for subcommand in ["show", "validate", "check", "merge", "bench"] {
            let (status, captured) = run([subcommand, "--help"])
            #expect(status == 0)
            #expect(captured.out.hasPrefix("usage: adv-check rules \(subcommand)"))
        }
    }

    @Test func benchReportsBothFiguresAndItsSelfCheckHolds() {
        let (status, captured) = run(["bench", "--runs", "1"])
        #expect(status == 0)
        #expect(captured.out.contains("merge 5000+5000 records: median "))
        #expect(captured.out.contains("encode+decode 5000 records ("))
        #expect(!captured.out.contains("self-check failed"))
    }
}
