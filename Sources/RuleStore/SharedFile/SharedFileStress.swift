import BlockerCore

/// The deterministic add/remove workload one process runs in the multi-process file test.
///
/// Each worker only touches ids it created (`w<worker>-<n>`), so the expected final
/// file is known from the seeds alone: any lost update shows up as a missing rule,
/// a missing tombstone or a resurrected rule.
public enum SharedFileStress {
    /// One step of a worker.
    public enum Operation: Equatable, Sendable {
        /// Add rule `id`.
        case add(id: String)
        /// Delete the earlier-added rule `id`.
        case remove(id: String)
    }

    /// The operations worker `worker` performs for `seed`.
    public static func plan(worker: Int, operations: Int, seed: UInt64) -> [Operation] {
        var rng = SplitMix64(seed: seed &+ UInt64(worker) &* 0x1000_0001)
        var live: [String] = []
        var plan: [Operation] = []
        plan.reserveCapacity(operations)
        for step in 0..<operations {
            if !live.isEmpty, Int.random(in: 0..<10, using: &rng) < 4 {
                let id = live.remove(at: Int.random(in: 0..<live.count, using: &rng))
                plan.append(.remove(id: id))
            } else {
                let id = "w\(worker)-\(step)"
                live.append(id)
                plan.append(.add(id: id))
            }
        }
        return plan
    }

    /// Applies one operation to the shared file under its lock.
    /// - Throws: `RuleStoreError` from the file.
    public static func apply(_ operation: Operation, to file: SharedRuleFile, now: Int64) throws {
        try file.update { document in
            switch operation {
            case .add(let id):
                document.collection.upsert(id: id, hostname: "stress.example", selector: "#\(id)", now: now)
            case .remove(let id):
                document.collection.delete(id: id, now: now)
            }
        }
    }
}
