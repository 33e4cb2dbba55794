import Foundation

/// The `personal-rules-v1` record of the private database as a transport returns it.
public struct CloudRecord: Sendable, Equatable {
    /// The record name every device uses.
    public static let recordName = "personal-rules-v1"
    /// The record type.
    public static let recordType = "ADVSettings"

    /// The `rules` bytes field: a rule document (`RuleCodec`).
    public var rules: Data
    /// The server's change tag; a save must quote it to replace this version.
    public var changeTag: String

    /// Creates a record value.
    public init(rules: Data, changeTag: String) {
        self.rules = rules
        self.changeTag = changeTag
    }
}
