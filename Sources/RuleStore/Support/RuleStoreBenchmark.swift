import BlockerCore
import Foundation

/// Timing of the operations the spec gives a budget for (under 20 ms each).
public enum RuleStoreBenchmark {
    /// One measured operation.
    public struct Figure: Sendable, CustomStringConvertible {
        /// What was measured.
        public var name: String
        /// Median over `runs`.
        public var medianMilliseconds: Double
        /// Fastest run.
        public var minimumMilliseconds: Double
        /// Number of timed runs.
        public var runs: Int

        /// `merge 5000+5000 records: median 3.21 ms, min 3.02 ms over 25 runs`
        public var description: String {
            "\(name): median \(String(format: "%.2f", medianMilliseconds)) ms, "
                + "min \(String(format: "%.2f", minimumMilliseconds)) ms over \(runs) runs"
        }
    }

    /// Two overlapping 5,000-record collections as two devices would hold them.
    ///
    /// Half the ids are shared with different versions (some deleted on one side), so
    /// the merge does real comparisons. Even with short ids, 5,000 records encode to
    /// more than 500 KB (the field names alone take ~68 bytes a record), so the round
    /// trip lifts the size limit and reports the byte count it measured.
    public static func sampleCollections() -> (RuleCollection, RuleCollection) {
        var rng = SplitMix64(seed: 5_000)
        func record(_ index: Int, device: Int) -> PersonalRule {
            PersonalRule(
                id: "r\(index)", hostname: "site\(index % 300).example.com",
                selector: ".ad-\(Int.random(in: 0..<1_000, using: &rng))",
                modifiedAt: 1_767_225_600_000 + Int64.random(in: 0..<1_000_000, using: &rng),
                deleted: Int.random(in: 0..<10, using: &rng) == 0 && device == 1)
        }
        let a = RuleCollection((0..<5_000).map { record($0, device: 0) })
        let b = RuleCollection((2_500..<7_500).map { record($0, device: 1) })
        return (a, b)
    }

    /// Measures merge and round trip `runs` times each after one warm-up.
    public static func run(runs: Int = 25) -> [Figure] {
        let (a, b) = sampleCollections()
        let document = RuleDocument(collection: a)
        var sink = 0
        let merge = measure("merge 5000+5000 records", runs: runs) {
            sink &+= a.merged(with: b).count
        }
        let bytes = RuleCodec.encode(document).count
        var failures = 0
        let roundTrip = measure("encode+decode 5000 records (\(bytes) bytes)", runs: runs) {
            let decoded = try? RuleCodec.decode(RuleCodec.encode(document), file: nil, limit: .max)
            if decoded?.collection.count != a.count { failures += 1 }
        }
        let encoded = RuleCodec.encode(document)
        let encodeOnly = measure("  of which encode", runs: runs) { sink &+= RuleCodec.encode(document).count }
        let decodeOnly = measure("  of which decode", runs: runs) {
            sink &+= (try? RuleCodec.decode(encoded, file: nil, limit: .max))?.collection.count ?? 0
        }
        if failures > 0 || sink == 0 {
            return [Figure(name: "benchmark self-check failed: round trip lost records", medianMilliseconds: .nan, minimumMilliseconds: .nan, runs: 0)]
        }
        return [merge, roundTrip, encodeOnly, decodeOnly]
    }

    private static func measure(_ name: String, runs: Int, _ body: () -> Void) -> Figure {
        body()
        let clock = ContinuousClock()
        var samples: [Double] = []
        for _ in 0..<max(1, runs) {
            let elapsed = clock.measure(body)
            samples.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
        }
        samples.sort()
        return Figure(name: name, medianMilliseconds: samples[samples.count / 2], minimumMilliseconds: samples[0], runs: samples.count)
    }
}
