import WebRuntime

/// A browser tab.
public final class Tab {
    /// The tab id scripts see (`tabs.Tab.id`), from 1.
    public let id: Int
    /// The window id (one window).
    public let windowID = 1
    /// The current page, nil while the tab shows nothing.
    public internal(set) var page: Page?
    /// The current URL.
    public internal(set) var url: String
    /// True for the active tab.
    public internal(set) var isActive = false
    /// True in a private-browsing window.
    public let isPrivate: Bool
    /// How many navigations the tab has made (for "granted once").
    public internal(set) var navigationCount = 0
    /// The tab's frames by frame id: 0 is the top document, iframes follow in load order.
    public internal(set) var frames: [Int: Frame] = [:]
    /// Style sheets `scripting.insertCSS` gave every frame of the current top document, for the
    /// frames it loads later (Safari); the top frame's next navigation drops them.
    var injectedStyleSheets: [InjectedStyleSheet] = []

    init(id: Int, url: String, isPrivate: Bool) {
        self.id = id
        self.url = url
        self.isPrivate = isPrivate
    }

    /// The frame with `id` (0: the top document).
    public func frame(_ id: Int) -> Frame? { frames[id] }

    /// Every frame, top first, then in order of frame id.
    public var allFrames: [Frame] { frames.keys.sorted().compactMap { frames[$0] } }

    /// The document title, or "" when there is no page.
    public var title: String { page?.title ?? "" }
}
