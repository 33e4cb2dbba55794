/// A DNR `RequestMethod`.
public enum DNRRequestMethod: String, Codable, Sendable, CaseIterable, Hashable {
    case connect, delete, get, head, options, patch, post, put, other

    /// One bit per method.
    var bit: UInt16 {
        switch self {
        case .connect: 1 << 0
        case .delete: 1 << 1
        case .get: 1 << 2
        case .head: 1 << 3
        case .options: 1 << 4
        case .patch: 1 << 5
        case .post: 1 << 6
        case .put: 1 << 7
        case .other: 1 << 8
        }
    }

    /// Every method as a mask.
    static let allMask: UInt16 = allCases.reduce(0) { $0 | $1.bit }
}
