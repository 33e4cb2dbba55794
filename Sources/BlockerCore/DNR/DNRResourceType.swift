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

    /// One bit per type, for the matcher's resource-type masks.
    var bit: UInt32 { 1 << UInt32(Self.allCases.firstIndex(of: self) ?? 0) }

    /// Every type as a mask.
    static let allMask: UInt32 = allCases.reduce(0) { $0 | $1.bit }

    /// Chromium's default when neither resourceTypes nor excludedResourceTypes is given:
    /// every type except main_frame (indexed_rule.cc, GetResourceTypesMask).
    static let defaultMask: UInt32 = allMask & ~DNRResourceType.mainFrame.bit
}
