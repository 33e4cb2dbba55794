import BrowserRuntime
import Foundation
import WebRuntime

/// Golden-trace comparison for a scenario result.
public enum Baseline {
    /// What the comparison found.
    public enum Outcome: Equatable, Sendable {
        /// The trace equals the baseline.
        case match
        /// The trace differs; the unified diff (baseline -> actual).
        case mismatch(diff: String)
        /// No baseline exists (fails; record it with --update-baselines).
        case missing
        /// The baseline was written (with --update-baselines).
        case recorded(changed: Bool)
    }

    /// Compares `result.trace` with the baseline, or rewrites it when `update` is set. On a
    /// mismatch, `<name>-actual.trace` and `<name>-diff.txt` are written under the results
    /// folder (never into the source tree).
    /// - Throws: file-system errors when writing.
    public static func check(_ result: ScenarioResult, catalog: ScenarioCatalog, update: Bool) throws -> Outcome {
        let baselineURL = catalog.baselineURL(for: result.scenario.file)
        let existing = try? String(contentsOf: baselineURL, encoding: .utf8)
        if update {
            guard existing != result.trace else { return .recorded(changed: false) }
            try FileManager.default.createDirectory(at: baselineURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try writeAtomically(result.trace, to: baselineURL)
            return .recorded(changed: true)
        }
        guard let existing else { return .missing }
        guard existing != result.trace else { return .match }
        let name = result.scenario.name
        let diff = LineDiff.unified(old: existing, new: result.trace, oldName: "baseline/\(result.scenario.id).trace", newName: "actual/\(result.scenario.id).trace")
        let folder = catalog.resultsFolder(suite: result.scenario.suite)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try writeAtomically(result.trace, to: folder.appendingPathComponent("\(name)-actual.trace"))
        try writeAtomically(diff, to: folder.appendingPathComponent("\(name)-diff.txt"))
        return .mismatch(diff: diff)
    }

    /// Writes through a temporary file and a rename, so nothing is ever half-written.
    package static func writeAtomically(_ text: String, to url: URL) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        try Data(text.utf8).write(to: temporary)
        if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
        try FileManager.default.moveItem(at: temporary, to: url)
    }
}
