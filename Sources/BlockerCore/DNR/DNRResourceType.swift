/// A DNR `ResourceType` (Chromium extensions/common/api/declarative_net_request.idl).
public enum DNRResourceType: String, Codable, Sendable, CaseIterable, Hashable {
    case mainFrame = "main_frame"
    case subFrame = "sub_frame"
    case stylesheet
    case script
    case image
    case font
    case object
    case xmlhttprequest
    case ping
    case cspReport = "csp_report"
    case media
    case websocket
    case webtransport
    case webbundle
    case other

    /// One bit per type, for the matcher's resource-type masks (a switch: this is on the hot path).
    var bit: UInt32 {
        switch self {
        case .mainFrame: 1 << 0
        case .subFrame: 1 << 1
        case .stylesheet: 1 << 2
        case .script: 1 << 3
        case .image: 1 << 4
        case .font: 1 << 5
        case .object: 1 << 6
        case .xmlhttprequest: 1 << 7
        case .ping: 1 << 8
        case .cspReport: 1 << 9
        case .media: 1 << 10
        case .websocket: 1 << 11
        case .webtransport: 1 << 12
        case .webbundle: 1 << 13
        case .other: 1 << 14
        }
    }

    /// Every type as a mask.
    static let allMask: UInt32 = allCases.reduce(0) { $0 | $1.bit }

    /// Chromium's default when neither resourceTypes nor excludedResourceTypes is given:
    /// every type except main_frame (indexed_rule.cc, GetResourceTypesMask).
    static let defaultMask: UInt32 = allMask & ~DNRResourceType.mainFrame.bit
}
