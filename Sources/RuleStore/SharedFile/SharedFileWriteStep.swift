/// The steps of one shared-file update, in order; crash-injection tests stop at each.
public enum SharedFileWriteStep: String, CaseIterable, Sendable {
    /// The exclusive lock is held.
    case locked
    /// The current file has been read and validated.
    case read
    /// The new document has been encoded and passed the size check.
    case encoded
    /// The temporary file holds the new bytes (not yet durable).
    case tempWritten
    /// The temporary file has been fsynced.
    case tempSynced
    /// The temporary file has been renamed over the data file.
    case renamed
    /// The directory has been fsynced, making the rename durable.
    case directorySynced
}
