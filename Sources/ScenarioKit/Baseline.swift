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

    /// Writes through a temporary file in the same folder and a rename(2), so nothing is ever
    /// half-written and a reader sees the old file or the new one. rename replaces a file but
    /// never a folder: a folder in the way is an error, not something deleted.
    /// - Throws: ``OutputError`` naming the path.
    package static func writeAtomically(_ text: String, to url: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw OutputError(path: url.path, reason: "is a folder; nothing was written")
        }
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        do { try Data(text.utf8).write(to: temporary) } catch {
            throw OutputError(path: url.path, reason: "cannot write: \(error.localizedDescription.lowercased())")
        }
        guard rename(temporary.path, url.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw OutputError(path: url.path, reason: "cannot replace the file (\(String(cString: strerror(code))))")
        }
    }
}

/// A file the harness could not write: which, and why.
public struct OutputError: Error, Equatable, CustomStringConvertible {
    /// The file.
    public let path: String
    /// What went wrong.
    public let reason: String

    /// Makes an error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
