import BlockerCore
import Foundation
import ScenarioKit
import StrictJSON
import TestSupport
import Testing
import WebRuntime

/// Seeded mutations of the shipped scenario files: each mutant is refused with a JSON path (the
/// harness's exit 2) or accepted, and none may crash the process (a trap here kills the test run).
@Suite struct ScenarioFuzzTests {
    /// The same mutants on every run and machine.
    typealias Generator = SplitMix64

    /// Values a mutation puts in place of another: other types, and the numbers that used to trap
    /// or wrap (huge, negative, fractional where a count is due).
    static let replacements: [JSONValue] = [
        .number(1e16), .number(1e300), .number(-1), .number(-1e300), .number(0.5), .number(0), .number(9_007_199_254_740_992),
        .string(""), .string("x"), .bool(true), .null, .array([]), .object([:]), .array([.number(1)]),
    ]

    /// Every path to a value in `value`, parents before children.
    static func paths(_ value: JSONValue, _ prefix: [JSONPath.Component] = []) -> [[JSONPath.Component]] {
        var found = [prefix]
        switch value {
        case .object(let members):
            for key in members.keys.sorted() { found += paths(members[key] ?? .null, prefix + [.key(key)]) }
        case .array(let elements):
            for (index, element) in elements.enumerated() { found += paths(element, prefix + [.index(index)]) }
        default: break
        }
        return found
    }

    /// The node at `path` in `value`, if there is one.
    static func value(_ value: JSONValue, at path: ArraySlice<JSONPath.Component>) -> JSONValue? {
        guard let first = path.first else { return value }
        switch (value, first) {
        case (.object(let members), .key(let key)): return members[key].flatMap { Self.value($0, at: path.dropFirst()) }
        case (.array(let elements), .index(let index)) where elements.indices.contains(index): return Self.value(elements[index], at: path.dropFirst())
        default: return nil
        }
    }

    /// `value` with the node at `path` replaced (nil: removed from its object or array).
    static func replacing(_ value: JSONValue, at path: ArraySlice<JSONPath.Component>, with new: JSONValue?) -> JSONValue? {
        guard let first = path.first else { return new }
        switch (value, first) {
        case (.object(var members), .key(let key)):
            guard let child = members[key] else { return value }
            members[key] = replacing(child, at: path.dropFirst(), with: new)
            return .object(members)
        case (.array(var elements), .index(let index)) where elements.indices.contains(index):
            if let changed = replacing(elements[index], at: path.dropFirst(), with: new) { elements[index] = changed } else { elements.remove(at: index) }
            return .array(elements)
        default: return value
        }
    }

    /// One mutant of `text` (a scenario file) by `generator`.
    static func mutate(_ text: String, _ root: JSONValue, _ generator: inout Generator) -> String {
        let all = paths(root)
        // Half the time a number: times, counts and indices are where values used to trap.
        let numbers = all.filter { if case .number? = value(root, at: $0[...]) { return true } else { return false } }
        let pool = !numbers.isEmpty && generator.below(2) == 0 ? numbers : all
        let target = pool[generator.below(pool.count)]
        switch generator.below(10) {
        case 0:
            // Truncation: a file cut short anywhere.
            let bytes = Array(text.utf8)
            return String(decoding: bytes.prefix(generator.below(bytes.count)), as: UTF8.self)
        case 1:
            // A key given twice: the first member of the document's text repeated.
            guard let brace = text.firstIndex(of: "{"), let comma = text[brace...].firstIndex(of: ",") else { return text }
            let member = text[text.index(after: brace)..<comma]
            return String(text[...brace]) + member + "," + String(text[text.index(after: brace)...])
        case 2, 3:
            // A deleted key or element.
            guard !target.isEmpty else { return text }
            return (replacing(root, at: target[...], with: nil) ?? root).canonical
        default:
            // A value of another type, or a number out of range.
            let numeric = replacements.filter { if case .number = $0 { return true } else { return false } }
            let choices = numbers.contains(target) && generator.below(4) != 0 ? numeric : replacements
            let new = choices[generator.below(choices.count)]
            return (replacing(root, at: target[...], with: new) ?? root).canonical
        }
    }

    @Test func tenThousandMutantsAreAcceptedOrRefusedWithAPath() throws {
        let files = Support.catalog.allFiles()
        #expect(files.count > 50)
        let sources: [(String, JSONValue)] = try files.map { file in
            let text = try String(contentsOf: file, encoding: .utf8)
            return (text, try JSONValue.parse(text))
        }
        let folder = Support.scratchRoot.appendingPathComponent("adv-fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var generator = Generator(seed: 20_261_201)
        var accepted: [Scenario] = []
        var refused = 0
        for round in 0..<10_000 {
            let (text, root) = sources[generator.below(sources.count)]
            let mutant = Self.mutate(text, root, &generator)
            // Beside the fixtures' own relative paths: a mutant resolves files as its original did.
            let file = folder.appendingPathComponent("mutant-\(round % 64).json")
            try Data(mutant.utf8).write(to: file)
            do {
                let scenario = try Support.catalog.scenario(at: file)
                if accepted.count < 40, scenario.wallBudget <= 30, scenario.virtualBudget <= .seconds(600) { accepted.append(scenario) }
            } catch let error as ScenarioError {
                refused += 1
                // The reason is always said; where it is a value, the path or a line names it.
                #expect(!error.reason.isEmpty)
                #expect(!error.path.isEmpty || error.line != nil || error.reason.hasPrefix("cannot read") || error.reason.contains("top level"),
                        "mutant \(round) refused without a place: \(error)")
            } catch {
                Issue.record("mutant \(round) failed with \(type(of: error)), not a scenario error: \(error)")
            }
        }
        #expect(refused > 1_000, "the mutations should mostly break something: \(refused) refused")
        #expect(!accepted.isEmpty)
        // A sample of the accepted ones runs to its end without taking the process down.
        for scenario in accepted {
            let outcome = SuiteRun.runOne(scenario, catalog: Support.catalog, update: false, compareBaselines: false)
            #expect(outcome.result.scenario.id == scenario.id)
        }
    }
}
