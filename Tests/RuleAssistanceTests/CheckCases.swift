import Foundation
import RuleAssistance
import TestSupport

/// `fixtures/rule-assistance/check-cases.json`, the table both the Swift checker and the
/// popup's JavaScript must agree with.
struct CheckCases {
    struct Case: CustomStringConvertible {
        let id: String
        let hostname: String
        let selector: String
        /// Elements matched on the page; nil for an invalid selector.
        let matches: Int?
        /// Findings as ``CheckCases/line(kind:other:relation:detail:)`` writes them.
        let findings: [String]
        /// What the harness engine gives instead, where it disagrees with WebKit.
        let engineMatches: Int??
        let engineFindings: [String]?
        let engineWhy: String?

        var rule: CheckedRule { CheckedRule(id: id, hostname: hostname, selector: selector) }
        var description: String { "\(id) '\(selector)'" }
    }

    struct Run {
        let name: String
        let cases: [Case]
    }

    let pageName: String
    let pageHTML: String
    let runs: [Run]

    static let shared: CheckCases = {
        do { return try load() } catch { fatalError("fixtures/rule-assistance/check-cases.json: \(error)") }
    }()

    static func load() throws -> CheckCases {
        let data = Data(try Support.fixture("rule-assistance/check-cases.json").utf8)
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let page = root["page"] as? String, let runs = root["runs"] as? [[String: Any]]
        else { throw CocoaError(.coderReadCorrupt) }
        return CheckCases(pageName: page, pageHTML: try Support.fixture("rule-assistance/" + page), runs: try runs.map { run in
            guard let name = run["name"] as? String, let cases = run["cases"] as? [[String: Any]] else { throw CocoaError(.coderReadCorrupt) }
            return Run(name: name, cases: try cases.map(Self.parseCase))
        })
    }

    private static func parseCase(_ object: [String: Any]) throws -> Case {
        guard let id = object["id"] as? String, let hostname = object["hostname"] as? String,
            let selector = object["selector"] as? String, let findings = object["findings"] as? [[String: Any]]
        else { throw CocoaError(.coderReadCorrupt) }
        let engine = object["engine"] as? [String: Any]
        var engineMatches: Int??
        if let engine, engine.keys.contains("matches") { engineMatches = .some(engine["matches"] as? Int) }
        return Case(
            id: id, hostname: hostname, selector: selector, matches: object["matches"] as? Int,
            findings: findings.map(line), engineMatches: engineMatches,
            engineFindings: (engine?["findings"] as? [[String: Any]]).map { $0.map(line) },
            engineWhy: engine?["why"] as? String)
    }

    /// `overlap other=o1 relation=contained-in`
    static func line(_ object: [String: Any]) -> String {
        line(kind: object["kind"] as? String ?? "?", other: object["other"] as? String,
             relation: object["relation"] as? String, detail: object["detail"] as? String)
    }

    static func line(kind: String, other: String?, relation: String?, detail: String?) -> String {
        var text = kind
        if let other { text += " other=\(other)" }
        if let relation { text += " relation=\(relation)" }
        if let detail { text += " detail=\(detail)" }
        return text
    }

    static func line(_ finding: Finding) -> String {
        line(kind: finding.kind.rawValue, other: finding.other?.id, relation: finding.relation?.rawValue, detail: finding.detail)
    }
}
