import BlockerCore
import RuleStore

/// Finds a random history that breaks a property, then shrinks it to a minimal one.
package enum PropertyCheck {
    /// A failing, shrunk history and how to replay it.
    package struct Counterexample: CustomStringConvertible {
        package var seed: UInt64
        package var history: EditHistory
        package var failure: String

        package var description: String {
            "property failed for seed \(seed) (shrunk to \(history.operations.count) operations): \(failure)\n\(history)"
        }
    }

    /// Runs `property` on `cases` random histories; nil when all hold.
    ///
    /// `property` returns a failure message or nil. The first failing history is
    /// shrunk by deleting chunks of operations (halving the chunk size down to one)
    /// and zeroing clock skews, keeping each step only while the property still fails.
    package static func check(
        seed: UInt64, cases: Int, length: Int = 40,
        property: (EditHistory) -> String?
    ) -> Counterexample? {
        var rng = SplitMix64(seed: seed)
        for index in 0..<cases {
            let caseSeed = rng.next()
            var caseRNG = SplitMix64(seed: caseSeed)
            let history = EditHistory.random(using: &caseRNG, length: length)
            guard let failure = property(history) else { continue }
            let shrunk = shrink(history, property: property)
            return Counterexample(
                seed: caseSeed, history: shrunk.history,
                failure: "case \(index + 1) of \(cases) (run seed \(seed)): \(shrunk.failure ?? failure)")
        }
        return nil
    }

    static func shrink(
        _ history: EditHistory, property: (EditHistory) -> String?
    ) -> (history: EditHistory, failure: String?) {
        var current = history
        var failure = property(current)
        var chunk = max(1, current.operations.count / 2)
        while chunk >= 1 {
            var removedAny = false
            var start = 0
            while start < current.operations.count {
                var candidate = current
                candidate.operations.removeSubrange(start..<min(start + chunk, candidate.operations.count))
                if let message = property(candidate) {
                    current = candidate
                    failure = message
                    removedAny = true
                } else {
                    start += chunk
                }
            }
            if !removedAny { chunk /= 2 }
        }
        for device in current.skews.indices where current.skews[device] != 0 {
            var candidate = current
            candidate.skews[device] = 0
            if let message = property(candidate) {
                current = candidate
                failure = message
            }
        }
        return (current, failure)
    }
}
