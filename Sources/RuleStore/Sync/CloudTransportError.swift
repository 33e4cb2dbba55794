/// How a single transport call can fail, as CloudKit reports it.
public enum CloudTransportError: Error, Equatable, Sendable {
    /// The network or service did not answer; the call may or may not have taken effect.
    case network
    /// The change tag quoted by a save is no longer current (another device saved first).
    case conflict
    /// The user's iCloud storage is full.
    case quotaExceeded
    /// No iCloud account, or it is restricted.
    case accountUnavailable
}
