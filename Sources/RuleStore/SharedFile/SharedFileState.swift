import Foundation

/// What the shared rule file looks like right now, for the native bridge and the app.
public struct SharedFileState: Sendable, Equatable {
    /// Whether the file can be used.
    public enum Status: Sendable, Equatable {
        /// No file yet; it reads as an empty collection and the first write creates it.
        case missing
        /// A valid document.
        case ok
        /// The file fails validation (the reason is in `problem`); writes are refused.
        case corrupt
        /// The file exists but cannot be read (the reason is in `problem`).
        case unreadable
    }

    /// The status.
    public var status: Status
    /// The data file's path.
    public var path: String
    /// Size in bytes, 0 when missing.
    public var bytes: Int
    /// Content fingerprint; changes whenever the bytes do. Nil when missing.
    public var revision: String?
    /// Live rules.
    public var liveCount: Int
    /// Deletion markers.
    public var tombstoneCount: Int
    /// Applied migrations.
    public var migrations: [String]
    /// Why the file is corrupt or unreadable.
    public var problem: String?
}

extension SharedRuleFile {
    /// The file's current state; never throws, problems are part of the answer.
    public func state() -> SharedFileState {
        var state = SharedFileState(
            status: .missing, path: url.path, bytes: 0, revision: nil,
            liveCount: 0, tombstoneCount: 0, migrations: [], problem: nil)
        do {
            let (data, document) = try snapshot()
            guard let data else { return state }
            state.status = .ok
            state.bytes = data.count
            state.revision = Revision.of(data)
            state.tombstoneCount = document.collection.tombstoneCount
            state.liveCount = document.collection.count - state.tombstoneCount
            state.migrations = document.migrations
        } catch {
            if case .corruptFile(_, let reason) = error {
                state.status = .corrupt
                state.problem = reason
                if let data = try? Data(contentsOf: url) {
                    state.bytes = data.count
                    state.revision = Revision.of(data)
                }
            } else {
                state.status = .unreadable
                state.problem = error.description
            }
        }
        return state
    }
}
