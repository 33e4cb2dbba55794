/// A DNR `RequestMethod`.
public enum DNRRequestMethod: String, Codable, Sendable, CaseIterable, Hashable {
    case connect, delete, get, head, options, patch, post, put, other

    /// One bit per method.
    var bit: UInt16 { 1 << UInt16(Self.allCases.firstIndex(of: self) ?? 0) }

    /// Every method as a mask.
    static let allMask: UInt16 = allCases.reduce(0) { $0 | $1.bit }
}
