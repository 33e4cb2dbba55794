/// Runs a `SyncSession` against a transport: fetch, merge, save with the change tag, retry on conflict.
public struct SyncEngine<Transport: CloudRecordTransport>: Sendable {
    /// The cloud access.
    public let transport: Transport
    /// Retry limits.
    public let policy: SyncPolicy
    /// How to wait between retries (the app sleeps; tests advance a `VirtualClock`).
    public let sleep: @Sendable (Int64) async -> Void

    /// Creates an engine.
    public init(transport: Transport, policy: SyncPolicy = SyncPolicy(), sleep: @escaping @Sendable (Int64) async -> Void) {
        self.transport = transport
        self.policy = policy
        self.sleep = sleep
    }

    /// Syncs `local` with the cloud record.
    /// - Returns: The collection the cloud now holds; the caller merges it into local storage.
    /// - Throws: `CloudSyncError` describing why the sync gave up.
    public func sync(_ local: RuleCollection) async throws(CloudSyncError) -> SyncResult {
        var session = SyncSession(local: local, policy: policy)
        var step = session.next(.start)
        while true {
            switch step {
            case .finished(let result): return result
            case .failed(let error): throw error
            case .perform(.fetch):
                do {
                    step = session.next(.fetched(.success(try await transport.fetch())))
                } catch {
                    step = session.next(.fetched(.failure(error)))
                }
            case .perform(.save(let rules, let tag)):
                do {
                    step = session.next(.saved(.success(try await transport.save(rules: rules, expectedTag: tag))))
                } catch {
                    step = session.next(.saved(.failure(error)))
                }
            case .perform(.wait(let milliseconds)):
                await sleep(milliseconds)
                step = session.next(.waited)
            }
        }
    }
}
