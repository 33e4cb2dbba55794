import Foundation
import TestSupport
import Testing
@testable import RuleStore

/// Merge laws over random multi-device edit histories with clock skew.
@Suite struct MergePropertyTests {
    typealias Merge = @Sendable (RuleCollection, RuleCollection) -> RuleCollection
    static let merge: Merge = { $0.merged(with: $1) }

    /// Every law checked on one history, or the first one broken.
    static func laws(_ merge: @escaping Merge) -> (EditHistory) -> String? {
        { history in
            let outcome = history.run(merge: merge)
            // Distinct states only: the same collection appears after many operations.
            var pool: [RuleCollection] = []
            for state in outcome.snapshots where !pool.contains(state) { pool.append(state) }
            let sample = Array(pool.suffix(12))
            for a in sample {
                if merge(a, a) != a { return "idempotence: a ⊔ a != a for \(a.records)" }
                for b in sample {
                    let ab = merge(a, b)
                    let ba = merge(b, a)
                    if ab != ba { return "commutativity: a ⊔ b != b ⊔ a\n  a = \(a.records)\n  b = \(b.records)\n  a ⊔ b = \(ab.records)\n  b ⊔ a = \(ba.records)" }
                    for c in sample.suffix(4) where merge(ab, c) != merge(a, merge(b, c)) {
                        return "associativity: (a ⊔ b) ⊔ c != a ⊔ (b ⊔ c)\n  a = \(a.records)\n  b = \(b.records)\n  c = \(c.records)"
                    }
                }
            }
            // Convergence: every order of folding the devices' final states agrees.
            let f = outcome.finals
            let orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
            let results = orders.map { order in order.reduce(RuleCollection()) { merge($0, f[$1]) } }
            if Set(results.map { $0.records }).count != 1 { return "convergence: fold order changes the result" }
            // No lost deletion, no resurrection: each id ends at its greatest version ever written.
            var greatest: [String: PersonalRule] = [:]
            for version in outcome.versions {
                if let known = greatest[version.id], !version.supersedes(known) { continue }
                greatest[version.id] = version
            }
            for (id, expected) in greatest where results[0][id] != expected {
                return "lost update: \(id) ended as \(String(describing: results[0][id])), expected \(expected)"
            }
            return nil
        }
    }

    @Test(arguments: [UInt64(1), 0xADF0_0D, 20_261_129])
    func mergeIsCommutativeAssociativeIdempotentAndConverges(seed: UInt64) {
        let counterexample = PropertyCheck.check(seed: seed, cases: 150, property: Self.laws(Self.merge))
        #expect(counterexample == nil, "\(counterexample.map(String.init(describing:)) ?? "")")
    }

    @Test func tiesAreResolvedByDeletionThenContent() {
        let live = Support.rule("x", selector: ".b", at: 5)
        let dead = Support.rule("x", selector: ".a", at: 5, deleted: true)
        let otherSelector = Support.rule("x", selector: ".c", at: 5)
        let later = Support.rule("x", selector: ".a", at: 6)
        #expect(RuleCollection([live]).merged(with: RuleCollection([dead]))["x"] == dead)
        #expect(RuleCollection([dead]).merged(with: RuleCollection([live]))["x"] == dead)
        #expect(RuleCollection([live]).merged(with: RuleCollection([otherSelector]))["x"] == otherSelector)
        #expect(RuleCollection([dead]).merged(with: RuleCollection([later]))["x"] == later)
    }

    @Test func tieBreakUsesUTF16OrderLikeJavaScript() {
        // U+FF5E sorts after U+1F600 by scalar value but before it by UTF-16 code unit (0xD83D).
        let fullwidth = Support.rule("x", selector: ".\u{FF5E}", at: 5)
        let emoji = Support.rule("x", selector: ".\u{1F600}", at: 5)
        #expect(RuleCollection([fullwidth]).merged(with: RuleCollection([emoji]))["x"] == fullwidth)
        #expect(RuleCollection([emoji]).merged(with: RuleCollection([fullwidth]))["x"] == fullwidth)
    }

    @Test func tombstoneStopsAnOfflineDeviceFromRestoringTheRule() {
        var phone = RuleCollection()
        phone.upsert(id: "r1", hostname: "example.com", selector: ".ad", now: 100)
        let laptopOffline = phone  // the laptop copied the rule, then went offline
        phone.delete(id: "r1", now: 200)
        let merged = laptopOffline.merged(with: phone)
        #expect(merged["r1"]?.deleted == true)
        #expect(merged.liveRules.isEmpty)
        #expect(merged.count == 1, "the tombstone is retained")
    }

    @Test func editStampedAfterTheVersionItEditedDespiteALaggingClock() {
        var fast = RuleCollection()
        fast.upsert(id: "r1", hostname: "example.com", selector: ".a", now: 10_000)
        var slow = fast
        let edit = slow.upsert(id: "r1", hostname: "example.com", selector: ".b", now: 50)
        #expect(edit.modifiedAt == 10_001)
        #expect(fast.merged(with: slow)["r1"]?.selector == ".b")
    }

    /// The checker itself must find and shrink a real bug: a merge that prefers its
    /// right-hand side on equal timestamps is not commutative.
    @Test func checkerShrinksABrokenMergeToAMinimalCounterexample() throws {
        let rightBiased: Merge = { a, b in
            var records = a.recordsByID
            for record in b.records {
                if let mine = records[record.id], mine.modifiedAt > record.modifiedAt { continue }
                records[record.id] = record
            }
            return RuleCollection(validatedByID: records)
        }
        let found = try #require(PropertyCheck.check(seed: 7, cases: 200, property: Self.laws(rightBiased)))
        let text = found.description
        #expect(text.contains("seed \(found.seed)"))
        // The bug needs two versions of one id at one timestamp: an add, an exchange and
        // two edits, plus whatever index-based picks need; far below the 40 generated.
        #expect(found.history.operations.count <= 8, "\(text)")
        // Shrinking is a fixpoint: removing any single operation makes the failure disappear.
        for index in found.history.operations.indices {
            var smaller = found.history
            smaller.operations.remove(at: index)
            #expect(Self.laws(rightBiased)(smaller) == nil, "operation \(index + 1) was removable:\n\(text)")
        }
    }
}
