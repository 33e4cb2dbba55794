/// Why a sync ended without agreeing with the cloud, as a value the app can show.
public enum CloudSyncError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Every attempt met a network failure.
    case networkUnavailable(attempts: Int)
    /// Other devices kept saving between our fetch and save.
    case conflictRetriesExhausted(attempts: Int)
    /// iCloud storage is full.
    case quotaExceeded
    /// No usable iCloud account.
    case accountUnavailable
    /// The cloud record's bytes fail validation; it is not overwritten.
    case remoteRecordInvalid(reason: String)
    /// The merged collection is over the 500 KB limit; nothing was uploaded.
    case collectionTooLarge(bytes: Int, limit: Int)

    /// One lowercase line for the app's sync status.
    public var description: String {
        switch self {
        case .networkUnavailable(let attempts):
            return "icloud could not be reached after \(attempts) attempts; check the connection and sync again"
        case .conflictRetriesExhausted(let attempts):
            return "other devices kept changing the rules during \(attempts) attempts; sync again in a moment"
        case .quotaExceeded:
            return "icloud storage is full; free some space and sync again"
        case .accountUnavailable:
            return "no icloud account is available; sign in to icloud and sync again"
        case .remoteRecordInvalid(let reason):
            return "the rules stored in icloud are unreadable (\(reason)); they were left untouched"
        case .collectionTooLarge(let bytes, let limit):
            return "the merged rules take \(bytes) bytes, over the \(limit)-byte limit; nothing was uploaded"
        }
    }
}
