import CommandLineKit
import Foundation
import TestSupport
import Testing
@testable import ADVCheckKit
@testable import BlockerCore

private func run(_ arguments: [String], in folder: URL = Support.packageRoot) -> (status: Int32, out: String, err: String) {
    let output = CommandOutput()
    let status = ADVCheck.run(arguments, output: output, directory: folder.path)
    return (status, output.standardOutput, output.standardError)
}

private func temporaryFolder() throws -> URL {
    let url = Support.scratchRoot.appendingPathComponent("adv-check-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// The commands, run as the CLI runs them, with paths relative to the package root.
struct ADVCheckCommandTests {
    @Test func exportToStdoutAndFile() throws {
        let printed = run(["export"])
        #expect(printed.status == 0)
        #expect(printed.out == String(decoding: try DNRRuleset.encodeRules(BuiltInRules.rules), as: UTF8.self))
        let folder = try temporaryFolder()
        let file = folder.appendingPathComponent("rules.json").path
        #expect(run(["export", file]).status == 0)
        #expect(FileManager.default.contents(atPath: file) == (try DNRRuleset.encodeRules(BuiltInRules.rules)))
        // No temporary files are left beside the output.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["rules.json"])
    }

    @Test(arguments: [
        (["export", "--out", "x"], "unknown option '--out' for 'adv-check export'"),
        (["export", "a.json", "b.json"], "unexpected argument 'b.json'"),
        (["verify", "--rules"], "option '--rules' needs a value"),
        (["bench", "--runs", "zero"], "option '--runs' needs a positive whole number, got 'zero'"),
        (["verfy"], "unknown command 'verfy'; did you mean 'verify'?"),
        (["export", "/nonexistent-folder/rules.json"], "folder '/nonexistent-folder' does not exist"),
        (["verify", "--rules", "/nonexistent/rules.json"], "/nonexistent/rules.json: cannot read file"),
    ])
    func badArgumentsExitTwo(arguments: [String], message: String) {
        let result = run(arguments)
        #expect(result.status == 2)
        #expect(result.err.contains(message), "\(result.err)")
        #expect(result.err.hasPrefix("adv-check: "))
        #expect(result.err.split(separator: "\n").count == 1)
    }

    @Test(arguments: ["export", "verify", "package", "bench"])
    func everyCommandHasHelp(command: String) {
        let result = run([command, "--help"])
        #expect(result.status == 0)
        #expect(result.out.contains("usage: adv-check \(command)"))
    }

    /// The committed fixtures pass: every divergence is a documented one.
    @Test func verifyPassesOnTheFixtures() {
        let result = run(["verify"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("verify: ok"))
        #expect(result.out.contains("reason: separator-at-end"))
        #expect(result.out.contains("0 failures"))
    }

    /// A rule file whose divergence is not documented fails verification with exit 1.
    @Test func unexplainedDivergenceFails() throws {
        let folder = try temporaryFolder()
        let fixture = folder.appendingPathComponent("wrong.json")
        try Data(#"{"requests":[{"name":"x","url":"https://ad.doubleclick.net/a.js","type":"script","expect":"none"}]}"#.utf8).write(to: fixture)
        let result = run(["verify", "--requests", fixture.path])
        #expect(result.status == 1)
        #expect(result.err.contains("expected dnr 'none', got block"))
    }

    @Test func badFixtureNamesFileAndKeyPath() throws {
        let folder = try temporaryFolder()
        let fixture = folder.appendingPathComponent("bad.json")
        try Data(#"{"requests":[{"name":"x","url":"https://a.example/","type":"script","expekt":"block"}]}"#.utf8).write(to: fixture)
        let result = run(["verify", "--requests", fixture.path])
        #expect(result.status == 2)
        #expect(result.err.contains("bad.json:1:69: requests[0].expekt: unknown key 'expekt'"))
    }

    /// Filtered vs unfiltered counts: expected blocked counts come from the page's hosts
    /// checked against the domain list directly, not from the matcher.
    @Test func pageCounts() throws {
        let page = try PageFixture.load(Support.packageRoot.appendingPathComponent("fixtures/pages/news-article.html").path)
        let adHosts = page.subresources.filter { resource in
            guard let host = URL(string: resource.url)?.host else { return false }
            return AdvertisingDomains.all.contains { Hostname.isSameOrSubdomain(host, of: $0) }
        }
        #expect(page.subresources.count == 12)
        let result = run(["verify"])
        #expect(result.out.contains("unfiltered 12 requests load; filtered \(12 - adHosts.count) load, \(adHosts.count) blocked by dnr, \(adHosts.count) by content blocker"))
    }

    @Test func packageCopiesAndValidates() throws {
        let folder = try temporaryFolder()
        let out = folder.appendingPathComponent("Resources").path
        let result = run(["package", "--out", out])
        #expect(result.status == 0, "\(result.err)")
        let packagedRules = try #require(FileManager.default.contents(atPath: out + "/networkRules.json"))
        #expect(packagedRules == (try DNRRuleset.encodeRules(BuiltInRules.rules)))
        #expect(FileManager.default.fileExists(atPath: out + "/manifest.json"))
    }

    @Test func packageFailsOnAMissingManifestFile() throws {
        let folder = try temporaryFolder()
        let source = folder.appendingPathComponent("ext")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        let manifest = #"{"manifest_version":3,"name":"ADV","version":"1","content_scripts":[{"matches":["<all_urls>"],"js":["content/filters.js"]}]}"#
        try Data(manifest.utf8).write(to: source.appendingPathComponent("manifest.json"))
        let out = folder.appendingPathComponent("Resources").path
        let result = run(["package", "--source", source.path, "--out", out])
        #expect(result.status == 2)
        #expect(result.err.contains("manifest.json:1:101: content_scripts[0].js[0]: names 'content/filters.js', which does not exist"))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func packageFailsOnAnInvalidRuleset() throws {
        let folder = try temporaryFolder()
        let source = folder.appendingPathComponent("ext")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        let manifest = #"{"manifest_version":3,"name":"ADV","version":"1","declarative_net_request":{"rule_resources":[{"id":"extra","enabled":true,"path":"extra.json"}]}}"#
        try Data(manifest.utf8).write(to: source.appendingPathComponent("manifest.json"))
        try Data(#"[{"id":1,"action":{"type":"block"},"condition":{"urlFilter":""}}]"#.utf8).write(to: source.appendingPathComponent("extra.json"))
        let result = run(["package", "--source", source.path, "--out", folder.appendingPathComponent("Resources").path])
        #expect(result.status == 2)
        #expect(result.err.contains("extra.json:1:61: [0].condition.urlFilter: Rule with id 1 cannot have an empty value for urlFilter key."))
    }

    @Test func packageNeverReplacesWhatItDidNotMake() throws {
        let folder = try temporaryFolder()
        // A user's folder with content of its own, and the working directory: both left alone.
        let mine = folder.appendingPathComponent("mine")
        try FileManager.default.createDirectory(at: mine, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: mine.appendingPathComponent("notes.txt"))
        for out in [mine.path, "."] {
            let source = Support.packageRoot.appendingPathComponent("WebExtension").path
            let result = run(["package", "--source", source, "--out", out], in: out == "." ? mine : Support.packageRoot)
            #expect(result.status == 2, "\(result.err)")
            #expect(result.err.contains("exists and was not made by adv-check package; it is left as it is"), "\(result.err)")
            #expect(result.err.split(separator: "\n").count == 1)
        }
        #expect((try? String(contentsOf: mine.appendingPathComponent("notes.txt"), encoding: .utf8)) == "keep")
        #expect(try FileManager.default.contentsOfDirectory(atPath: mine.path) == ["notes.txt"])
        // A file in the way, a path under a file, and the source itself are refused too.
        let file = folder.appendingPathComponent("file.txt")
        try Data("x".utf8).write(to: file)
        #expect(run(["package", "--out", file.path]).err.contains("is a file; it is left as it is"))
        #expect(run(["package", "--out", file.path + "/Resources"]).err.contains("which is a file, not a folder"))
        #expect(run(["package", "--out", "WebExtension/out"]).err.contains("overlaps the source folder"))
        #expect((try? String(contentsOf: file, encoding: .utf8)) == "x")
    }

    @Test func packageReplacesAPackageItMade() throws {
        let out = try temporaryFolder().appendingPathComponent("Resources").path
        #expect(run(["package", "--out", out]).status == 0)
        try Data("stale".utf8).write(to: URL(fileURLWithPath: out + "/stale.txt"))
        let again = run(["package", "--out", out])
        #expect(again.status == 0, "\(again.err)")
        #expect(!FileManager.default.fileExists(atPath: out + "/stale.txt"), "the previous package is replaced whole")
        #expect(FileManager.default.fileExists(atPath: out + "/manifest.json"))
    }

    @Test func exportRefusesAFolderAndLeavesItAlone() throws {
        let folder = try temporaryFolder()
        try Data("keep".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let result = run(["export", folder.path])
        #expect(result.status == 2)
        #expect(result.err.contains("is a folder; it is left as it is"), "\(result.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["notes.txt"])
    }

    @Test func benchReportsBothMetrics() {
        let result = run(["bench", "--runs", "1", "--requests", "2000", "--json"])
        #expect(result.status == 0)
        #expect(result.out.contains("\"dnr_decisions_per_s\""))
        #expect(result.out.contains("\"content_blocker_decisions_per_s\""))
    }
}

/// DNR and Content Blocker agree on every generated benchmark request except documented cases.
@Test func benchmarkWorkloadAgrees() throws {
    let benchmark = DecisionBenchmark(requestCount: 3000)
    let rulesets = [BuiltInRules.ruleset, DNRRuleset(id: "_dynamic", source: .dynamic, rules: benchmark.dynamicRules())]
    let comparator = try DecisionComparator(rulesets: rulesets)
    var blocked = 0
    for item in benchmark.requestStrings() {
        let comparison = comparator.compare(try DNRRequest(url: item.url, type: item.type, initiator: item.initiator, frames: [item.frame]))
        #expect(comparison.agrees || comparison.knownDivergence != nil)
        if comparison.dnr.isBlocked { blocked += 1 }
    }
    #expect(blocked > 300)
}
