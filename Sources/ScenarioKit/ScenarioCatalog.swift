import BrowserRuntime
import Foundation
import Suggestion
import WebRuntime

/// Finds suites and scenario files, and where their baselines live.
///
/// Layout: `fixtures/scenarios/<suite>/<name>.json`, with its golden trace at
/// `fixtures/baselines/<suite>/<name>.trace`. A scenario outside `fixtures/scenarios` keeps its
/// baseline beside it (`<name>.trace` in the same folder), so suites kept in other repositories run too.
public struct ScenarioCatalog: Sendable {
    /// The folder holding `fixtures/`.
    public let projectRoot: URL
    /// The extension folder a scenario without an `extension` key runs (nil: none). The runtime
    /// has no default of its own; a project's command line sets one (ADV's is `WebExtension/`).
    public var defaultExtension: URL?

    /// Makes a catalog for `projectRoot`.
    public init(projectRoot: URL, defaultExtension: URL? = nil) {
        self.projectRoot = projectRoot.standardizedFileURL
        self.defaultExtension = defaultExtension?.standardizedFileURL
    }

    /// Reads and validates the scenario file `file` (see ``Scenario/load(_:projectRoot:defaultExtension:)``).
    /// - Throws: ``ScenarioError`` naming the file, the JSON path and the reason.
    public func scenario(at file: URL) throws -> Scenario {
        try Scenario.load(file, projectRoot: projectRoot, defaultExtension: defaultExtension)
    }

    /// The project root found from `directory` upwards (a folder with `fixtures/scenarios`), or
    /// `ADV_PROJECT_ROOT` when set.
    public static func locate(from directory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) -> ScenarioCatalog? {
        locateRoot(from: directory).map { ScenarioCatalog(projectRoot: $0) }
    }

    private static func locateRoot(from directory: URL) -> URL? {
        if let root = ProcessInfo.processInfo.environment["ADV_PROJECT_ROOT"] { return URL(fileURLWithPath: root) }
        var folder = directory.standardizedFileURL
        while true {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("fixtures/scenarios").path) { return folder }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { return nil }
            folder = parent
        }
    }

    /// `fixtures/scenarios`.
    public var scenariosFolder: URL { projectRoot.appendingPathComponent("fixtures/scenarios") }

    /// Suite names, sorted.
    public func suites() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: scenariosFolder.path)) ?? []
        return names.filter { name in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: scenariosFolder.appendingPathComponent(name).path, isDirectory: &isDirectory) && isDirectory.boolValue
        }.sorted()
    }

    /// The scenario files of a folder, sorted by name.
    public func files(in folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { folder.appendingPathComponent($0).standardizedFileURL }
    }

    /// Every scenario file of every suite.
    public func allFiles() -> [URL] { suites().flatMap { files(in: scenariosFolder.appendingPathComponent($0)) } }

    /// Scenario files named by command-line arguments: suite names, `suite/name`, files or
    /// folders (all suites when empty).
    /// - Throws: ``CatalogError`` naming an argument that is none of these.
    public func resolve(_ arguments: [String]) throws -> [URL] {
        if arguments.isEmpty { return allFiles() }
        var result: [URL] = []
        for argument in arguments {
            var isDirectory: ObjCBool = false
            let url = URL(fileURLWithPath: argument)
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
                result += isDirectory.boolValue ? files(in: url) : [url.standardizedFileURL]
            } else if suites().contains(argument) {
                result += files(in: scenariosFolder.appendingPathComponent(argument))
            } else if argument.contains("/"), FileManager.default.fileExists(atPath: scenariosFolder.appendingPathComponent(argument + ".json").path) {
                // suite/name, as `adv-harness list` and traces name scenarios.
                result.append(scenariosFolder.appendingPathComponent(argument + ".json").standardizedFileURL)
            } else {
                let hint = Suggestion.hint(for: argument, in: suites())
                throw CatalogError("unknown suite '\(argument)'\(hint) (adv-harness list shows all)")
            }
        }
        var seen = Set<String>()
        return result.filter { seen.insert($0.path).inserted }
    }

    /// Where `scenario`'s golden trace lives.
    public func baselineURL(for file: URL) -> URL {
        let name = file.deletingPathExtension().lastPathComponent + ".trace"
        let suiteFolder = file.deletingLastPathComponent()
        if suiteFolder.deletingLastPathComponent().standardizedFileURL.path == scenariosFolder.standardizedFileURL.path {
            return projectRoot.appendingPathComponent("fixtures/baselines").appendingPathComponent(suiteFolder.lastPathComponent).appendingPathComponent(name)
        }
        return suiteFolder.appendingPathComponent(name)
    }

    /// Where mismatch reports go: `.build/adv-results/<suite>/`, never the source tree.
    public func resultsFolder(suite: String) -> URL {
        projectRoot.appendingPathComponent(".build/adv-results").appendingPathComponent(suite)
    }
}
