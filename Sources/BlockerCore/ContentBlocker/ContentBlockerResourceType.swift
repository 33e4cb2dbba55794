/// A Content Blocker `resource-type` value.
public enum ContentBlockerResourceType: String, Codable, Sendable, Hashable, CaseIterable {
    case document, image, font, raw, media, popup, ping, fetch, websocket, other
    case styleSheet = "style-sheet"
    case script
    case svgDocument = "svg-document"
    case cspReport = "csp-report"
    case topDocument = "top-document"
    case childDocument = "child-document"
}
