import BlockerCore
import CommandLineKit
import Foundation

/// `adv-check verify`: DNR semantics vs the translated Content Blocker rules on the
/// request fixtures, then filtered/unfiltered request counts on the fixture pages.
enum VerifyCommand {
    static let spec = CommandSpec(
        tool: "adv-check", command: "verify", options: ["--rules", "--pages"], lists: ["--requests"], maxPositionals: 0,
        help: """
            usage: adv-check verify [--requests FILE...] [--rules FILE] [--pages DIR]

            Decides every request in the request fixtures by DNR semantics (Chromium) and
            by the rules WebKit's translator makes of the same DNR rules, and lists every
            divergence with both decisions and the reason. Known divergences (documented
            Safari-vs-Chromium differences, Sources/BlockerCore/README.md) are expected; any other
            divergence, or a request whose 'expect' or 'divergence' does not hold, fails.
            Then loads each fixture page, counts its subresource requests with no rules
            (unfiltered) and with the rules (filtered), and prints the counts.

              --requests FILE...  request fixtures (default: fixtures/requests/*.json)
              --rules FILE        DNR rule file to check instead of the built-in rules
              --pages DIR         fixture pages (default: fixtures/pages)

            Exit status: 0 when every divergence is a known one, 1 otherwise, 2 for bad input.
            """)

    static func run(_ words: [String], output: CommandOutput) throws -> Int32 {
        let arguments = try Arguments(words, spec: spec)
        if arguments.wantsHelp {
            output.out(spec.help)
            return 0
        }
        // Validate every input before deciding anything.
        let staticRuleset = try loadRules(arguments.value("--rules"))
        let requestPaths = try arguments.values["--requests"] ?? listFiles("fixtures/requests", extension: "json", option: "--requests")
        let fixtures = try requestPaths.map { ($0, try RequestFixture.load($0)) }
        let pagesFolder = arguments.value("--pages") ?? "fixtures/pages"
        let pagePaths = try listFiles(pagesFolder, extension: "html", option: "--pages", required: arguments.value("--pages") != nil)
        let pages = try pagePaths.map(PageFixture.load)

        var agreed = 0
        var known = 0
        var failures: [String] = []
        var total = 0
        for (path, fixture) in fixtures {
            let dynamic = DNRRuleset(id: "_dynamic", source: .dynamic, rules: fixture.dynamicRules ?? [])
            let comparator = try DecisionComparator(rulesets: [staticRuleset, dynamic])
            for (index, entry) in fixture.requests.enumerated() {
                total += 1
                let position = "\(path): requests[\(index)] '\(entry.name)'"
                let request: DNRRequest
                do {
                    request = try DNRRequest(url: entry.url, type: entry.type, method: entry.method ?? .get, initiator: entry.initiator,
                                             tabId: entry.tabId ?? -1, frames: entry.frames ?? [])
                } catch let error as InputError {
                    throw InputError(file: path, position: "requests[\(index)]", message: error.message)
                }
                let comparison = comparator.compare(request)
                let outcome = RequestFixture.outcome(comparison.dnr)
                if let expect = entry.expect, expect != outcome {
                    failures.append("\(position): expected dnr '\(expect)', got \(comparison.dnr)")
                }
                if comparison.agrees {
                    agreed += 1
                    if let divergence = entry.divergence {
                        failures.append("\(position): expected divergence '\(divergence.rawValue)' but both engines agree (\(comparison.dnr))")
                    }
                    continue
                }
                let both = "dnr: \(comparison.dnr); content blocker: \(comparison.contentBlocker) → \(comparison.safari)"
                if let reason = comparison.knownDivergence {
                    known += 1
                    output.out("known divergence \(position)\n  \(both)\n  reason: \(reason.rawValue): \(reason.explanation)")
                    if let expected = entry.divergence, expected != reason {
                        failures.append("\(position): expected divergence '\(expected.rawValue)', diagnosed '\(reason.rawValue)'")
                    }
                } else {
                    failures.append("\(position): unexplained divergence; \(both)")
                }
            }
        }
        output.out("requests: \(total) in \(fixtures.count) fixture files; \(agreed) agree, \(known) known divergences, \(failures.count) failures")
        try reportPages(pages, ruleset: staticRuleset, output: output)
        for failure in failures { output.err("fail: \(failure)") }
        output.out(failures.isEmpty ? "verify: ok" : "verify: failed")
        return failures.isEmpty ? 0 : ADVCheck.checkFailed
    }

    /// The seed's filtered/unfiltered comparison: every subresource loads without rules;
    /// with them, the blocked ones do not.
    private static func reportPages(_ pages: [PageFixture], ruleset: DNRRuleset, output: CommandOutput) throws {
        let comparator = try DecisionComparator(rulesets: [ruleset])
        for page in pages {
            var dnrBlocked = 0
            var contentBlockerBlocked = 0
            for resource in page.subresources {
                let request = try DNRRequest(url: resource.url, type: resource.type, initiator: DNRURL(page.pageURL)?.origin,
                                             frames: [page.pageURL])
                let comparison = comparator.compare(request)
                if comparison.dnr.isBlocked { dnrBlocked += 1 }
                if comparison.safari.isBlocked { contentBlockerBlocked += 1 }
            }
            let count = page.subresources.count
            output.out("page \(page.path) (\(page.pageURL)): unfiltered \(count) requests load; filtered \(count - dnrBlocked) load, \(dnrBlocked) blocked by dnr, \(contentBlockerBlocked) by content blocker")
        }
    }

    private static func loadRules(_ path: String?) throws -> DNRRuleset {
        guard let path else { return BuiltInRules.ruleset }
        let rules = try DNRRuleset.decodeRules(from: try FileHandleWriter.read(path), file: path)
        if let error = DNRRuleValidator.validate(ruleset: rules, source: .staticRuleset(index: 0)).first {
            throw InputError(file: path, position: error.keyPath, message: error.message)
        }
        return DNRRuleset(id: BuiltInRules.rulesetID, source: .staticRuleset(index: 0), rules: rules)
    }

    static func listFiles(_ folder: String, extension wanted: String, option: String, required: Bool = true) throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: FileHandleWriter.resolve(folder), isDirectory: &isDirectory), isDirectory.boolValue else {
            if !required { return [] }
            throw InputError(file: folder, message: "folder not found; run from the package root or pass \(option)")
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: FileHandleWriter.resolve(folder))) ?? []
        return names.filter { $0.hasSuffix("." + wanted) }.sorted().map { folder + "/" + $0 }
    }
}
