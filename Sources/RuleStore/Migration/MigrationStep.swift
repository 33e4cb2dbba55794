/// The points of a browser-local migration at which a process can die; tests crash at each.
public enum MigrationStep: Hashable, Sendable, CustomStringConvertible {
    /// The local "already migrated" flag was read (and was not set).
    case checkedLocalFlag
    /// The browser-local rules were loaded.
    case loadedLocalRules
    /// A step of the shared-file write that merges them in and records the marker.
    case sharedFile(SharedFileWriteStep)
    /// The shared file holds the rules and the marker.
    case sharedCommitted
    /// The local flag is set: migration is complete.
    case markedLocal

    /// Every step in the order a migration passes them.
    public static let all: [MigrationStep] =
        [.checkedLocalFlag, .loadedLocalRules] + SharedFileWriteStep.allCases.map { .sharedFile($0) }
        + [.sharedCommitted, .markedLocal]

    /// A readable name such as `shared-file:renamed`.
    public var description: String {
        switch self {
        case .checkedLocalFlag: return "checked-local-flag"
        case .loadedLocalRules: return "loaded-local-rules"
        case .sharedFile(let step): return "shared-file:\(step.rawValue)"
        case .sharedCommitted: return "shared-committed"
        case .markedLocal: return "marked-local"
        }
    }
}
