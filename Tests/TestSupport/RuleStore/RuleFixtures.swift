import Foundation
import RuleStore

/// Paths and small builders for the rule store's tests.
extension Support {
    /// The package root, found from this file's location.
    public static let packageRoot: URL = fixtures.deletingLastPathComponent()

    /// A file under `fixtures/`.
    public static func fixtureURL(_ relative: String) -> URL {
        packageRoot.appendingPathComponent("fixtures").appendingPathComponent(relative)
    }

    /// A fresh empty directory under the system temporary directory.
    public static func temporaryDirectory(_ label: String = #function) throws -> URL {
        let safe = label.filter { $0.isLetter || $0.isNumber }
        let url = Support.scratchRoot
            .appendingPathComponent("adv-rulestore-\(safe)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A valid record with defaults for fields a test does not care about.
    public static func rule(
        _ id: String, host: String = "example.com", selector: String = ".ad",
        at time: Int64 = 1_000, deleted: Bool = false
    ) -> PersonalRule {
        PersonalRule(id: id, hostname: host, selector: selector, modifiedAt: time, deleted: deleted)
    }
}
