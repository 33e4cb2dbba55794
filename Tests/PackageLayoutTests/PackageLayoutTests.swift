import Foundation
import Testing

/// The package's shape, as README.md's "Layout" states it: which target may import which, that the
/// runtime knows nothing of ADV, that only JSKit touches the C API, and that no target outgrows
/// the rest. Read from Package.swift and the sources, so the rules cannot drift from the code.
@Suite struct PackageLayoutTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// What each source target may depend on (README.md, "Layout"). A dependency not listed here
    /// is a change of design: change the README and this table together.
    static let allowed: [String: Set<String>] = [
        "CJavaScriptCore": [],
        "JSKit": ["CJavaScriptCore"],
        "StrictJSON": [],
        "Suggestion": [],
        "BlockerCore": ["StrictJSON", "Suggestion"],
        "RuleStore": ["StrictJSON", "BlockerCore"],
        "RuleAssistance": [],
        "WebPlatform": [],
        "WebRuntime": ["JSKit", "WebPlatform"],
        "BrowserRuntime": ["WebRuntime", "JSKit", "StrictJSON", "BlockerCore"],
        "ScenarioKit": ["BrowserRuntime", "WebRuntime", "JSKit", "StrictJSON", "Suggestion", "BlockerCore"],
        "RuntimeBench": ["ScenarioKit", "BrowserRuntime", "WebRuntime", "JSKit"],
        "CommandLineKit": ["Suggestion"],
        "ADVHarnessSupport": ["ScenarioKit", "RuntimeBench", "BrowserRuntime", "WebRuntime", "JSKit", "RuleStore"],
        "HarnessCLI": ["CommandLineKit", "Suggestion", "ADVHarnessSupport", "RuntimeBench", "ScenarioKit", "BrowserRuntime", "WebRuntime", "JSKit"],
        "ADVCheckKit": ["CommandLineKit", "Suggestion", "StrictJSON", "BlockerCore", "RuleStore", "RuleAssistance"],
        "adv-harness": ["HarnessCLI"],
        "adv-check": ["ADVCheckKit", "CommandLineKit"],
        "adv-rulefile-worker": ["RuleStore"],
    ]

    /// The targets that run any WebExtension: nothing of ADV may reach them.
    static let runtimeTargets: Set<String> = ["WebPlatform", "WebRuntime", "BrowserRuntime", "ScenarioKit", "RuntimeBench"]

    /// Modules that come with the toolchain or the system.
    static let systemModules: Set<String> = ["Foundation", "Dispatch", "Glibc", "Musl", "Darwin", "Testing", "XCTest", "FoundationEssentials"]

    struct Target {
        let name: String
        let kind: String
        let dependencies: Set<String>
        let path: String?
    }

    /// Every target of Package.swift with its declared dependencies.
    static let targets: [Target] = {
        guard let text = try? String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8) else { return [] }
        let pattern = try? NSRegularExpression(pattern: #"\.(target|executableTarget|testTarget|systemLibrary)\(\s*name:\s*"([^"]+)""#)
        let ns = text as NSString
        let matches = pattern?.matches(in: text, range: NSRange(location: 0, length: ns.length)) ?? []
        return matches.enumerated().map { index, match in
            let end = index + 1 < matches.count ? matches[index + 1].range.location : ns.length
            let body = ns.substring(with: NSRange(location: match.range.location, length: end - match.range.location))
            var dependencies: Set<String> = []
            if let open = body.range(of: "dependencies: ["), let close = body[open.upperBound...].firstIndex(of: "]") {
                dependencies = Set(body[open.upperBound..<close].split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                }.filter { !$0.isEmpty })
            }
            var path: String?
            if let key = body.range(of: "path: \"") , let quote = body[key.upperBound...].firstIndex(of: "\"") {
                path = String(body[key.upperBound..<quote])
            }
            return Target(name: ns.substring(with: match.range(at: 2)), kind: ns.substring(with: match.range(at: 1)), dependencies: dependencies, path: path)
        }
    }()

    static var sourceTargets: [Target] { targets.filter { $0.kind != "testTarget" && $0.path == nil } }

    /// The Swift and JavaScript files of a folder, recursively.
    static func files(in folder: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { ["swift", "js"].contains($0.pathExtension) }
    }

    static func lineCount(_ url: URL) -> Int {
        guard let data = FileManager.default.contents(atPath: url.path) else { return 0 }
        return data.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
    }

    @Test func everySourceTargetIsInTheRulesAndDependsOnlyOnWhatTheyAllow() {
        #expect(Self.sourceTargets.count >= 15, "Package.swift was not read: \(Self.targets.map(\.name))")
        for target in Self.sourceTargets {
            guard let allowed = Self.allowed[target.name] else {
                Issue.record("target '\(target.name)' is not in README.md's layout rules (PackageLayoutTests.allowed)")
                continue
            }
            let extra = target.dependencies.subtracting(allowed)
            #expect(extra.isEmpty, "'\(target.name)' may not depend on \(extra.sorted())")
        }
    }

    @Test func theRulesHaveNoCycle() {
        // Depth-first search over the allowed edges: a cycle would make "one direction" false.
        var state: [String: Int] = [:]
        func visit(_ name: String, _ path: [String]) {
            if state[name] == 1 { Issue.record("cycle: \((path + [name]).joined(separator: " → "))"); return }
            if state[name] == 2 { return }
            state[name] = 1
            for next in (Self.allowed[name] ?? []).sorted() { visit(next, path + [name]) }
            state[name] = 2
        }
        for name in Self.allowed.keys.sorted() { visit(name, []) }
    }

    @Test func everyImportIsADeclaredDependency() {
        let known = Set(Self.targets.map(\.name))
        for target in Self.sourceTargets where target.kind != "systemLibrary" {
            for file in Self.files(in: Self.root.appendingPathComponent("Sources/\(target.name)")) where file.pathExtension == "swift" {
                guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
                for line in text.split(separator: "\n") where line.hasPrefix("import ") || line.hasPrefix("@testable import ") {
                    let module = String(line.split(separator: " ").last ?? "")
                    if Self.systemModules.contains(module) { continue }
                    #expect(known.contains(module) && target.dependencies.contains(module),
                            "\(file.lastPathComponent) in '\(target.name)' imports '\(module)', which is not among its dependencies in Package.swift")
                }
            }
        }
    }

    @Test func onlyJSKitCallsTheCAPI() {
        for target in Self.sourceTargets where target.name != "JSKit" {
            #expect(!target.dependencies.contains("CJavaScriptCore"), "'\(target.name)' depends on the C API directly")
        }
        for file in Self.files(in: Self.root.appendingPathComponent("Sources")) + Self.files(in: Self.root.appendingPathComponent("Tests"))
        where file.pathExtension == "swift" && !file.path.contains("/Sources/JSKit/") {
            let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            #expect(!text.contains("import " + "CJavaScriptCore"), "\(file.path) imports the C API")
        }
    }

    @Test func theRuntimeKnowsNothingOfADV() {
        for name in Self.runtimeTargets {
            let target = Self.sourceTargets.first { $0.name == name }
            #expect(target != nil, "runtime target '\(name)' is missing")
            #expect(target?.dependencies.isDisjoint(with: ["ADVHarnessSupport", "RuleStore", "HarnessCLI", "ADVCheckKit", "CommandLineKit"]) == true)
            for file in Self.files(in: Self.root.appendingPathComponent("Sources/\(name)")) {
                let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
                // The shipping extension's folder and ADV's own messages are ADV's, not the runtime's.
                #expect(!text.contains("\"WebExtension\""), "\(file.lastPathComponent) names ADV's extension folder")
                #expect(!text.contains("adv-rule-store"), "\(file.lastPathComponent) names ADV's native host")
            }
        }
    }

    @Test func noTargetHoldsMoreThanAThirdOfTheCode() {
        // The share of the project's Swift and JavaScript (Sources/ and the shipping WebExtension/).
        var lines: [String: Int] = [:]
        for target in Self.sourceTargets {
            lines[target.name] = Self.files(in: Self.root.appendingPathComponent("Sources/\(target.name)")).map(Self.lineCount).reduce(0, +)
        }
        let total = lines.values.reduce(0, +) + Self.files(in: Self.root.appendingPathComponent("WebExtension")).map(Self.lineCount).reduce(0, +)
        #expect(total > 10_000)
        for (name, count) in lines {
            #expect(Double(count) <= 0.35 * Double(total), "'\(name)' holds \(count) of \(total) lines (over 35 %)")
        }
    }

    @Test func theExecutablesAreThinShells() {
        for name in ["adv-harness", "adv-check"] {
            let count = Self.files(in: Self.root.appendingPathComponent("Sources/\(name)")).map(Self.lineCount).reduce(0, +)
            #expect(count <= 10, "'\(name)' has \(count) lines; its decisions belong in a library tests can call")
        }
    }
}
