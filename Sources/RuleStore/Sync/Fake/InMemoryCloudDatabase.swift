import BlockerCore
import Foundation

/// An in-memory stand-in for the private database's single `personal-rules-v1` record.
///
/// Saves are compare-and-swap on the change tag, like CloudKit's `ifServerRecordUnchanged`
/// policy. Faults come from a script (`failNext`) or from seeded random rates, never
/// from unseeded randomness, so every run of a test is the same.
public final class InMemoryCloudDatabase: @unchecked Sendable {
    /// Which call a fault applies to.
    public enum Operation: Sendable, Equatable {
        /// `fetch`.
        case fetch
        /// `save`.
        case save
    }

    /// Call and fault counts, for tests to check that faults really happened.
    public struct Statistics: Sendable, Equatable {
        /// Fetches answered, failed or not.
        public var fetches = 0
        /// Saves answered, failed or not.
        public var saves = 0
        /// Saves that replaced the record.
        public var commits = 0
        /// Faults produced, by kind.
        public var faults: [InjectedFault: Int] = [:]
    }

    private let lock = NSLock()
    private var record: CloudRecord?
    private var tagCounter = 0
    private var script: [(Operation?, InjectedFault)] = []
    private var random: (generator: SplitMix64, rates: [InjectedFault: Double])?
    private var stats = Statistics()

    /// An empty database (no record yet).
    public init() {}

    /// The stored record, bypassing faults.
    public var storedRecord: CloudRecord? { lock.withLock { record } }

    /// Counts so far.
    public var statistics: Statistics { lock.withLock { stats } }

    /// Makes the next call of `operation` (any call when nil) fail with `fault`; scripts queue up.
    public func failNext(_ operation: Operation?, with fault: InjectedFault) {
        lock.withLock { script.append((operation, fault)) }
    }

    /// Makes every call fail with `fault` at the given probability, drawn from a generator seeded with `seed`.
    ///
    /// `conflict` and `lostResponse` only apply to saves. An empty `rates` turns random faults off.
    public func setRandomFaults(seed: UInt64, rates: [InjectedFault: Double]) {
        lock.withLock { random = rates.isEmpty ? nil : (SplitMix64(seed: seed), rates) }
    }

    /// Reads the record.
    /// - Throws: an injected fault.
    public func fetch() throws(CloudTransportError) -> CloudRecord? {
        lock.lock()
        defer { lock.unlock() }
        stats.fetches += 1
        if let fault = takeFault(for: .fetch) {
            stats.faults[fault, default: 0] += 1
            switch fault {
            case .quotaExceeded: throw .quotaExceeded
            case .accountUnavailable: throw .accountUnavailable
            case .network, .lostResponse, .conflict: throw .network
            }
        }
        return record
    }

    /// Replaces the record when `expectedTag` matches the stored one (nil: only if there is none).
    /// - Returns: The new change tag.
    /// - Throws: `.conflict` on a stale tag, or an injected fault.
    public func save(rules: Data, expectedTag: String?) throws(CloudTransportError) -> String {
        lock.lock()
        defer { lock.unlock() }
        stats.saves += 1
        let fault = takeFault(for: .save)
        if let fault { stats.faults[fault, default: 0] += 1 }
        switch fault {
        case .network?: throw .network
        case .quotaExceeded?: throw .quotaExceeded
        case .accountUnavailable?: throw .accountUnavailable
        case .conflict?:
            // Another device's save lands first: same bytes, new tag.
            record = CloudRecord(rules: record?.rules ?? RuleCodec.encode(RuleDocument()), changeTag: newTag())
        case .lostResponse?, nil:
            break
        }
        guard record?.changeTag == expectedTag else { throw .conflict }
        let tag = newTag()
        record = CloudRecord(rules: rules, changeTag: tag)
        stats.commits += 1
        if fault == .lostResponse { throw .network }
        return tag
    }

    private func newTag() -> String {
        tagCounter += 1
        return "tag-\(tagCounter)"
    }

    private func takeFault(for operation: Operation) -> InjectedFault? {
        if let index = script.firstIndex(where: { $0.0 == nil || $0.0 == operation }) {
            return script.remove(at: index).1
        }
        guard let (seeded, rates) = random else { return nil }
        var generator = seeded
        defer { random = (generator, rates) }
        // Fixed order so the same seed picks the same faults on every platform.
        for fault in InjectedFault.allCases {
            guard let rate = rates[fault], operation == .save || (fault != .conflict && fault != .lostResponse)
            else { continue }
            if Double.random(in: 0..<1, using: &generator) < rate { return fault }
        }
        return nil
    }
}
