/// A failure the in-memory database can be told to produce.
public enum InjectedFault: Hashable, Sendable, CaseIterable {
    /// The request never reaches the server.
    case network
    /// A save reaches the server and is applied, but the answer is lost.
    case lostResponse
    /// Another writer saves just before this save, so its change tag is stale.
    case conflict
    /// The account's storage is full.
    case quotaExceeded
    /// The account is signed out or restricted.
    case accountUnavailable
}
