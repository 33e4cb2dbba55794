import BlockerCore
import RuleStore

/// A random history of edits on several devices with skewed clocks, and what it produces.
///
/// Operations name their targets by index modulo what exists when they run, so any
/// sub-list of a history is still a valid history: that is what lets the shrinker
/// delete operations freely.
package struct EditHistory: CustomStringConvertible {
    package enum Operation: CustomStringConvertible {
        /// Device adds a new rule on host `host` with selector `selector`.
        case add(device: Int, host: Int, selector: Int)
        /// Device edits the `pick`-th live rule it knows.
        case edit(device: Int, pick: Int, selector: Int)
        /// Device deletes the `pick`-th live rule it knows.
        case delete(device: Int, pick: Int)
        /// Device `to` merges what device `from` has (a sync through any channel).
        case exchange(from: Int, to: Int)
        /// Real time moves on by `ms`.
        case wait(ms: Int64)

        package var description: String {
            switch self {
            case .add(let d, let h, let s): return "device \(d) adds host \(h) selector \(s)"
            case .edit(let d, let p, let s): return "device \(d) edits live rule #\(p) to selector \(s)"
            case .delete(let d, let p): return "device \(d) deletes live rule #\(p)"
            case .exchange(let f, let t): return "device \(t) merges from device \(f)"
            case .wait(let ms): return "wait \(ms) ms"
            }
        }
    }

    var skews: [Int64]
    package var operations: [Operation]

    package var description: String {
        "clock skews (ms) \(skews)\n" + operations.enumerated().map { "  \($0.offset + 1). \($0.element)" }
            .joined(separator: "\n")
    }

    /// A random history; small time steps and skews make equal timestamps common.
    static func random(using rng: inout SplitMix64, devices: Int = 3, length: Int = 40) -> EditHistory {
        let skews = (0..<devices).map { _ in Int64.random(in: -4...4, using: &rng) }
        let operations: [Operation] = (0..<length).map { _ in
            let device = Int.random(in: 0..<devices, using: &rng)
            switch Int.random(in: 0..<10, using: &rng) {
            case 0...2: return .add(device: device, host: Int.random(in: 0..<3, using: &rng), selector: Int.random(in: 0..<4, using: &rng))
            case 3...4: return .edit(device: device, pick: Int.random(in: 0..<8, using: &rng), selector: Int.random(in: 0..<4, using: &rng))
            case 5...6: return .delete(device: device, pick: Int.random(in: 0..<8, using: &rng))
            case 7...8: return .exchange(from: Int.random(in: 0..<devices, using: &rng), to: device)
            default: return .wait(ms: Int64.random(in: 0...3, using: &rng))
            }
        }
        return EditHistory(skews: skews, operations: operations)
    }

    /// What running the history produced.
    package struct Outcome {
        /// Each device's collection at the end.
        package var finals: [RuleCollection]
        /// Every collection any device held along the way.
        package var snapshots: [RuleCollection]
        /// Every version of every record ever written by an edit.
        package var versions: [PersonalRule]
    }

    /// Runs the history, merging with `merge` on every exchange.
    package func run(merge: (RuleCollection, RuleCollection) -> RuleCollection) -> Outcome {
        var devices = Array(repeating: RuleCollection(), count: skews.count)
        var snapshots: [RuleCollection] = []
        var versions: [PersonalRule] = []
        var now: Int64 = 1_000
        var nextID = 0
        for operation in operations {
            switch operation {
            case .add(let d, let host, let selector):
                nextID += 1
                versions.append(devices[d].upsert(
                    id: "r\(nextID)", hostname: "h\(host).example", selector: ".s\(selector)", now: now + skews[d]))
            case .edit(let d, let pick, let selector):
                let live = devices[d].liveRules
                guard !live.isEmpty else { continue }
                let target = live[pick % live.count]
                versions.append(devices[d].upsert(
                    id: target.id, hostname: target.hostname, selector: ".s\(selector)", now: now + skews[d]))
            case .delete(let d, let pick):
                let live = devices[d].liveRules
                guard !live.isEmpty, let tombstone = devices[d].delete(id: live[pick % live.count].id, now: now + skews[d])
                else { continue }
                versions.append(tombstone)
            case .exchange(let from, let to):
                devices[to] = merge(devices[to], devices[from])
            case .wait(let ms):
                now += ms
            }
            snapshots.append(contentsOf: devices)
        }
        return Outcome(finals: devices, snapshots: snapshots, versions: versions)
    }
}
