import Foundation
import RuleStore

/// The text `adv-check rules` prints for a collection.
enum RulesReport {
    /// `rules.json: 4 rules, 2 deletion markers, 1234 bytes (0.2% of the 500000-byte limit)`
    static func summary(path: String, bytes: Int, collection: RuleCollection) -> String {
        let tombstones = collection.tombstoneCount
        let live = collection.count - tombstones
        let share = Double(bytes) * 100 / Double(RuleCodec.sizeLimit)
        return "\(path): \(live) \(live == 1 ? "rule" : "rules"), \(tombstones) deletion "
            + "\(tombstones == 1 ? "marker" : "markers"), \(bytes) bytes "
            + "(\(String(format: "%.1f", share))% of the \(RuleCodec.sizeLimit)-byte limit)"
    }

    /// The summary, live rules grouped by hostname, deletion markers, then findings.
    static func show(path: String, bytes: Int, document: RuleDocument) -> String {
        let collection = document.collection
        var lines = [summary(path: path, bytes: bytes, collection: collection)]
        if !document.migrations.isEmpty { lines.append("migrated from: \(document.migrations.joined(separator: ", "))") }
        var currentHost: String?
        for rule in collection.liveRules {
            if rule.hostname != currentHost {
                lines.append(rule.hostname)
                currentHost = rule.hostname
            }
            lines.append("  \(rule.selector)    [\(rule.id), \(timestamp(rule.modifiedAt))]")
        }
        let tombstones = collection.records.filter(\.deleted)
        if !tombstones.isEmpty {
            lines.append("deletion markers")
            for rule in tombstones {
                lines.append("  \(rule.hostname) \(rule.selector)    [\(rule.id), deleted \(timestamp(rule.modifiedAt))]")
            }
        }
        for finding in findings(collection, bytes: bytes) { lines.append("warning: \(finding)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Things worth a look that do not make the file invalid.
    static func findings(_ collection: RuleCollection, bytes: Int) -> [String] {
        var findings: [String] = []
        var byTarget: [String: [String]] = [:]
        for rule in collection.liveRules { byTarget[rule.hostname + " " + rule.selector, default: []].append(rule.id) }
        for rule in collection.liveRules {
            let key = rule.hostname + " " + rule.selector
            guard let ids = byTarget[key], ids.count > 1, ids.first == rule.id else { continue }
            findings.append("selector '\(rule.selector)' on \(rule.hostname) is saved \(ids.count) times (ids \(ids.joined(separator: ", ")))")
        }
        if bytes * 10 >= RuleCodec.sizeLimit * 8 {
            findings.append("the collection uses \(bytes * 100 / RuleCodec.sizeLimit)% of the \(RuleCodec.sizeLimit)-byte limit; deletion markers are kept and count too")
        }
        return findings
    }

    /// `2026-01-01T00:00:00.000Z`
    static func timestamp(_ milliseconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
}
