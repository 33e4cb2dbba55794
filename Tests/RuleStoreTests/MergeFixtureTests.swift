import Foundation
import TestSupport
import Testing
@testable import RuleStore

/// The cross-language merge table the extension's scenarios read too.
@Suite struct MergeFixtureTests {
    struct Case: CustomTestStringConvertible {
        var name: String
        var a: RuleCollection
        var b: RuleCollection
        var merged: RuleCollection
        var testDescription: String { name }
    }

    static func cases() throws -> [Case] {
        let data = try Data(contentsOf: Support.fixtureURL("rules/merge-cases.json"))
        let root = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let entries = root?["cases"] as? [[String: Any]] ?? []
        func collection(_ value: Any?, _ label: String) throws -> RuleCollection {
            let bytes = try JSONSerialization.data(withJSONObject: value ?? NSNull())
            return try RuleCodec.decode(bytes, file: "merge-cases.json \(label)").collection
        }
        return try entries.map { entry in
            let name = entry["name"] as? String ?? "?"
            return Case(
                name: name, a: try collection(entry["a"], name + " a"), b: try collection(entry["b"], name + " b"),
                merged: try collection(entry["merged"], name + " merged"))
        }
    }

    @Test func fixtureHasEveryRuleOfTheMerge() throws {
        #expect(try Self.cases().count == 8)
    }

    @Test(arguments: try MergeFixtureTests.cases())
    func mergeMatchesTheFixtureBothWays(_ example: Case) {
        #expect(example.a.merged(with: example.b) == example.merged)
        #expect(example.b.merged(with: example.a) == example.merged)
    }
}
