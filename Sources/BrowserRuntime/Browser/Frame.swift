import JSKit
import WebRuntime

/// One frame of a tab: the top document (frame id 0) or the document of an `<iframe>`, each a
/// ``Page`` of its own with its own worlds and origin.
///
/// Frame ids follow WebExtensions: 0 is the top frame, every other frame gets a positive id that
/// is never reused in the browser's lifetime; the top frame's parent is -1.
public final class Frame {
    /// The frame id (`frameId` in messaging and webNavigation).
    public let id: Int
    /// The parent frame's id, -1 for the top frame.
    public let parentID: Int
    /// The tab that holds the frame.
    public unowned let tab: Tab
    /// The document's URL (`about:blank`, `about:srcdoc` for frames without a network load).
    public internal(set) var url: String
    /// The document, nil while none is loaded (a blocked frame never gets one).
    public internal(set) var page: Page?
    /// True when the frame's load was blocked by a rule.
    public internal(set) var isBlocked = false
    /// The `<iframe>` element in the parent's document (nil for the top frame).
    var element: JSValue?
    /// The parent frame (nil for the top frame).
    weak var parent: Frame?

    init(id: Int, parent: Frame?, tab: Tab, url: String, element: JSValue?) {
        self.id = id
        parentID = parent?.id ?? -1
        self.parent = parent
        self.tab = tab
        self.url = url
        self.element = element
    }

    /// The URL that decides where content scripts may run and whose origin the document has:
    /// its own, or for `about:` documents the nearest ancestor's that is not `about:` (WebKit and
    /// Chromium inherit the origin of the creator; match_about_blank matches against it).
    var effectiveURL: String {
        var frame: Frame? = self
        while let current = frame {
            if !current.url.hasPrefix("about:") { return current.url }
            frame = current.parent
        }
        return url
    }

    /// The URLs of the frame and its ancestors, top first (what the network layer needs to
    /// decide the frame's requests).
    var chain: [String] {
        var urls: [String] = []
        var frame: Frame? = self
        while let current = frame {
            urls.insert(current.effectiveURL, at: 0)
            frame = current.parent
        }
        return urls
    }
}
