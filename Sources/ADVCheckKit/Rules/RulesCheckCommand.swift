import BlockerCore
import CommandLineKit
import Foundation
import RuleAssistance
import RuleStore

/// `adv-check rules check FILE [--page FIXTURE] [--hostname HOST]`: Check existing filters,
/// the Swift side (RuleAssistance) of the popup's action.
enum RulesCheckCommand {
    static let spec = CommandSpec(tool: "adv-check", command: "rules check", options: ["--page", "--hostname"], maxPositionals: 1, help: """
        usage: adv-check rules check FILE [--page FIXTURE] [--hostname HOST]

        checks the live rules of FILE (personal-rules-v1) as the popup's Check existing filters
        does: invalid syntax, duplicates on the same hostname, likely generated names, positional
        selectors; with --page, also no matches on that page and page-local overlap between rules
        (one page does not prove global redundancy). A page naming its address in
        <meta name="adv-page-url"> is checked with that hostname's rules only.
        --hostname HOST checks only HOST's rules. At most 80 rules a check.
        exits 0 without findings, 1 with findings, 2 for bad input.
        """)

    /// - Returns: the exit status.
    /// - Throws: ``UsageError``, `RuleStoreError` or `InputError` for bad input (exit 2).
    static func run(_ words: [String], _ output: CommandOutput) throws -> Int32 {
        let arguments = try Arguments(words, spec: spec)
        if arguments.wantsHelp { output.out(spec.help); return ExitStatus.success }
        guard let path = arguments.positionals.first else { throw spec.error("'rules check' needs a FILE") }
        // Everything is read and checked before anything is printed.
        guard let file = try RulesCommand.load([path]).first else { return ExitStatus.badInput }
        var page: RulePage?
        if let pagePath = arguments.value("--page") {
            let html = String(decoding: try FileHandleWriter.read(pagePath), as: UTF8.self)
            page = RulePage(name: pagePath, html: html, hostname: pageHostname(html))
        }
        var live = file.document.collection.liveRules
        if let host = arguments.value("--hostname") {
            let normalized: String
            do { normalized = try Hostname.normalize(host) } catch { throw UsageError("--hostname '\(host)' is not a hostname: \(error)") }
            live = live.filter { $0.hostname == normalized }
        }
        let rules = live.map { CheckedRule(id: $0.id, hostname: $0.hostname, selector: $0.selector) }
        let findings: [Finding]
        do {
            findings = try RuleCheck.check(rules, page: page)
        } catch {
            throw InputError(file: path, message: "\(rules.count) live rules; a check takes at most \(RuleCheck.maxRules) at a time: check one site with --hostname HOST")
        }
        var heading = "\(path): \(rules.count) \(rules.count == 1 ? "rule" : "rules") checked"
        if let page {
            let matched = rules.filter { page.hostname == nil || $0.hostname == page.hostname }.count
            heading += ", \(matched) against \(page.name)" + (page.hostname.map { " (\($0))" } ?? "")
        }
        output.out(heading + ": \(findings.count) \(findings.count == 1 ? "finding" : "findings")")
        for finding in findings { output.out("\(finding.kind.rawValue): \(finding.message)") }
        return findings.isEmpty ? ExitStatus.success : ExitStatus.checkFailed
    }

    /// The hostname of the page's `<meta name="adv-page-url" content="...">`, if it names one.
    static func pageHostname(_ html: String) -> String? {
        let tree = HTMLTree(html: html)
        guard let meta = tree.elements.first(where: { $0.name == "meta" && $0.attribute("name") == "adv-page-url" }),
            let url = meta.attribute("content").flatMap(URL.init(string:)), let host = url.host
        else { return nil }
        return try? Hostname.normalize(host)
    }

    /// `FILE: rules[3].selector: 'div[' is not a valid selector: ...` for each live rule whose
    /// selector RuleAssistance refuses, in the file's order. The store keeps such records (the
    /// extension lists them as never applied); `show` and `validate` report them.
    static func selectorErrors(path: String, data: Data, collection: RuleCollection) -> [String] {
        let order = (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["rules"] as? [[String: Any]] ?? []
        var errors: [(Int, String)] = []
        for rule in collection.liveRules {
            guard let problem = SelectorSyntax.problem(rule.selector) else { continue }
            let index = order.firstIndex { $0["id"] as? String == rule.id } ?? 0
            errors.append((index, "\(path): rules[\(index)].selector: '\(rule.selector)' is not a valid selector: \(problem)"))
        }
        return errors.sorted { $0.0 < $1.0 }.map(\.1)
    }
}
