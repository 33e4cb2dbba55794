import Foundation

/// A `CloudRecordTransport` over an `InMemoryCloudDatabase`, each call taking `latency` virtual milliseconds.
public struct InMemoryCloudTransport: CloudRecordTransport {
    /// The shared fake database.
    public let database: InMemoryCloudDatabase
    /// The clock the latency is spent on.
    public let clock: VirtualClock
    /// Virtual milliseconds per call.
    public let latency: Int64

    /// Creates a transport.
    public init(database: InMemoryCloudDatabase, clock: VirtualClock, latency: Int64 = 120) {
        self.database = database
        self.clock = clock
        self.latency = latency
    }

    /// Fetches after `latency` virtual milliseconds.
    /// - Throws: what the database throws.
    public func fetch() async throws(CloudTransportError) -> CloudRecord? {
        clock.advance(by: latency)
        return try database.fetch()
    }

    /// Saves after `latency` virtual milliseconds.
    /// - Throws: what the database throws.
    public func save(rules: Data, expectedTag: String?) async throws(CloudTransportError) -> String {
        clock.advance(by: latency)
        return try database.save(rules: rules, expectedTag: expectedTag)
    }
}
