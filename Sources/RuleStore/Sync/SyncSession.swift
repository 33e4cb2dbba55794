import Foundation

/// One sync of a device's collection with the cloud record, as a state machine without I/O.
///
/// The caller performs each `Request` and feeds the result back; `SyncEngine` does
/// that over a transport, and the multi-device simulation does it on a virtual
/// timeline, interleaving devices between any two steps. Keeping the decisions here
/// makes them identical in both.
public struct SyncSession: Sendable {
    /// What the session needs done next.
    public enum Request: Sendable, Equatable {
        /// Fetch the record.
        case fetch
        /// Save `rules`, quoting `expectedTag`.
        case save(rules: Data, expectedTag: String?)
        /// Wait before retrying.
        case wait(milliseconds: Int64)
    }

    /// The outcome of a request, fed back with `next(_:)`.
    public enum Response: Sendable, Equatable {
        /// Begin the session.
        case start
        /// The result of `.fetch`.
        case fetched(Result<CloudRecord?, CloudTransportError>)
        /// The result of `.save`.
        case saved(Result<String, CloudTransportError>)
        /// The wait is over.
        case waited
    }

    /// Where the session is after a response.
    public enum Step: Sendable, Equatable {
        /// Perform this request and call `next(_:)` with its result.
        case perform(Request)
        /// The cloud and `SyncResult.merged` agree.
        case finished(SyncResult)
        /// The sync gave up.
        case failed(CloudSyncError)
    }

    private let local: RuleCollection
    private let policy: SyncPolicy
    private var attempts = 0
    private var merged: RuleCollection
    private var conflicts = 0

    /// A session for a device holding `local`.
    public init(local: RuleCollection, policy: SyncPolicy = SyncPolicy()) {
        self.local = local
        self.policy = policy
        self.merged = local
    }

    /// Advances the session with the result of the previous request.
    public mutating func next(_ response: Response) -> Step {
        switch response {
        case .start, .waited:
            attempts += 1
            return .perform(.fetch)
        case .fetched(.success(let record)):
            return afterFetch(record)
        case .saved(.success(let tag)):
            return .finished(SyncResult(merged: merged, uploaded: true, changeTag: tag, attempts: attempts, conflicts: conflicts))
        case .saved(.failure(.conflict)):
            // Someone saved between our fetch and save: fetch their version and merge again.
            conflicts += 1
            guard attempts < policy.maxAttempts else { return .failed(.conflictRetriesExhausted(attempts: attempts)) }
            attempts += 1
            return .perform(.fetch)
        case .fetched(.failure(let error)), .saved(.failure(let error)):
            return afterFailure(error)
        }
    }

    private mutating func afterFetch(_ record: CloudRecord?) -> Step {
        var remote = RuleCollection()
        if let record {
            do {
                remote = try RuleCodec.decode(record.rules).collection
            } catch {
                return .failed(.remoteRecordInvalid(reason: error.description))
            }
        }
        // Merge with what this device holds, not with the previous attempt's
        // result: the remote side already contains anything we managed to save.
        merged = local.merged(with: remote)
        if let record, merged == remote {
            return .finished(SyncResult(
                merged: merged, uploaded: false, changeTag: record.changeTag, attempts: attempts, conflicts: conflicts))
        }
        do {
            return .perform(.save(rules: try RuleCodec.recordBytes(merged), expectedTag: record?.changeTag))
        } catch {
            if case .collectionTooLarge(_, let bytes, let limit) = error {
                return .failed(.collectionTooLarge(bytes: bytes, limit: limit))
            }
            return .failed(.remoteRecordInvalid(reason: error.description))
        }
    }

    private mutating func afterFailure(_ error: CloudTransportError) -> Step {
        switch error {
        case .quotaExceeded: return .failed(.quotaExceeded)
        case .accountUnavailable: return .failed(.accountUnavailable)
        case .network, .conflict:
            // A save that timed out may or may not have landed; re-fetching and
            // merging is safe either way because merge is idempotent.
            guard attempts < policy.maxAttempts else { return .failed(.networkUnavailable(attempts: attempts)) }
            let doublings = Int64(min(attempts - 1, 16))
            return .perform(.wait(milliseconds: policy.initialBackoffMilliseconds << doublings))
        }
    }
}

/// A finished sync: the collection both this device and the cloud now hold.
public struct SyncResult: Sendable, Equatable {
    /// The merged collection; store it locally (merging with edits made meanwhile).
    public var merged: RuleCollection
    /// Whether this sync saved a new version.
    public var uploaded: Bool
    /// The record's change tag after the sync.
    public var changeTag: String
    /// Fetch/save rounds used.
    public var attempts: Int
    /// Save conflicts met and resolved by re-fetching.
    public var conflicts: Int
}
