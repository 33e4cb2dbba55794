/// A resource load as WebKit's content extensions see it
/// (WebCore/contentextensions/ContentExtensionsBackend.cpp: the resource URL, its
/// type, the main document URL and the frame URL).
public struct ContentBlockerRequest: Sendable {
    /// The resource URL.
    public var url: DNRURL
    /// Its type (`document` for frame navigations).
    public var resourceType: ContentBlockerResourceType
    /// True when the load happens in the top frame (load-context top-frame).
    public var isTopFrameLoad: Bool
    /// The main document URL.
    public var topURL: DNRURL
    /// The URL of the frame that makes the load (the parent for a frame navigation); nil for a top-level navigation.
    public var frameURL: DNRURL?
    /// The HTTP method, lowercase, as `request-method` compares it.
    public var method: String

    /// Creates a request.
    public init(url: DNRURL, resourceType: ContentBlockerResourceType, isTopFrameLoad: Bool, topURL: DNRURL, frameURL: DNRURL?,
                method: String = "get") {
        self.url = url
        self.method = method
        self.resourceType = resourceType
        self.isTopFrameLoad = isTopFrameLoad
        self.topURL = topURL
        self.frameURL = frameURL
    }

    /// The Content Blocker view of a DNR request: the resource type through WebKit's
    /// table (object, csp_report, webtransport and webbundle have none and become
    /// `other`), the main document from the frame list (or the URL itself for a
    /// top-level navigation), the frame URL as the innermost document.
    public init(_ request: DNRRequest) {
        self.url = request.url
        self.method = request.method.rawValue
        switch request.type {
        case .mainFrame, .subFrame: self.resourceType = .document
        case .cspReport: self.resourceType = .cspReport
        default: self.resourceType = ContentBlockerTranslator.resourceTypeMap[request.type] ?? .other
        }
        if request.type == .mainFrame {
            self.isTopFrameLoad = true
            self.topURL = request.url
            self.frameURL = nil
        } else {
            self.isTopFrameLoad = request.type == .subFrame ? false : request.frames.count <= 1
            self.topURL = request.frames.first ?? request.initiator ?? request.url
            self.frameURL = request.frames.last ?? request.initiator
        }
    }
}
