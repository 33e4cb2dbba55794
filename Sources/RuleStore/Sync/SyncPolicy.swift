/// Retry limits of one sync.
public struct SyncPolicy: Sendable, Equatable {
    /// Fetch/save rounds before giving up, counting the first.
    public var maxAttempts: Int
    /// Wait before retrying after a network failure; doubles each time.
    public var initialBackoffMilliseconds: Int64

    /// Creates a policy.
    public init(maxAttempts: Int = 5, initialBackoffMilliseconds: Int64 = 500) {
        self.maxAttempts = max(1, maxAttempts)
        self.initialBackoffMilliseconds = initialBackoffMilliseconds
    }
}
