import WebRuntime

/// A browser tab.
public final class Tab {
    /// The tab id scripts see (`tabs.Tab.id`), from 1.
    public let id: Int
    /// The id of the window the tab is in.
    public internal(set) var windowID: Int
    /// The extension whose call opened the tab (tabs.create, windows.create, openOptionsPage),
    /// and the tab's place among the tabs extensions opened (1 for the first): how scenario
    /// steps address it.
    public internal(set) var openedBy: String?
    public internal(set) var openedOrder: Int?
    /// The current page, nil while the tab shows nothing.
    public internal(set) var page: Page?
    /// The current URL.
    public internal(set) var url: String
    /// True for the active tab.
    public internal(set) var isActive = false
    /// True in a private-browsing window.
    public let isPrivate: Bool
    /// Pinned (tabs.create/update `pinned`): pinned tabs come first in their window.
    public internal(set) var isPinned = false
    /// Muted (tabs.update `muted`; `mutedInfo.muted`). Nothing plays, so no tab is audible.
    public internal(set) var isMuted = false
    /// The extension whose tabs.update muted it (Chrome's `mutedInfo.reason` "extension").
    var mutedBy: String?
    /// In its window's selection (`highlighted`, Safari's `selected`): the active tab always
    /// is, and tabs.highlight (Chrome) selects more.
    public internal(set) var isHighlighted = false
    /// The tab it was opened from (`openerTabId`), when one was named or a page opened it.
    public internal(set) var openerTabID: Int?
    /// Chrome's discard state: `discarded` after tabs.discard, until the tab is shown or
    /// navigated; `autoDiscardable` as tabs.update set it.
    public internal(set) var isDiscarded = false
    var autoDiscardable = true
    /// Chrome's tab group (`groupId`), -1 when ungrouped (TAB_GROUP_ID_NONE).
    public internal(set) var groupID = -1
    /// Safari's Reader (`isInReaderMode`), toggled by tabs.toggleReaderMode on an article.
    public internal(set) var isInReaderMode = false
    /// Whether the loaded page (by id) is an article Reader can show (Browser.isArticle).
    var articleCache: (page: Int, isArticle: Bool)?
    /// How many navigations the tab has made (for "granted once").
    public internal(set) var navigationCount = 0
    /// tabs.setZoom's factor and Chrome's zoom settings (kept and reported; nothing is laid out
    /// larger).
    public internal(set) var zoomFactor = 1.0
    var zoomMode = "automatic"
    var zoomScope = "per-origin"
    /// The tab's frames by frame id: 0 is the top document, iframes follow in load order.
    public internal(set) var frames: [Int: Frame] = [:]
    /// Style sheets `scripting.insertCSS` gave every frame of the current top document, for the
    /// frames it loads later (Safari); the top frame's next navigation drops them.
    var injectedStyleSheets: [InjectedStyleSheet] = []

    init(id: Int, url: String, isPrivate: Bool, windowID: Int) {
        self.id = id
        self.windowID = windowID
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

/// A browser window: its tabs are the browser's tabs with its id.
public final class BrowserWindow {
    /// The id scripts see (`windows.Window.id`), from 1.
    public let id: Int
    /// "normal" or "popup" (windows.create's `type`; "panel" is a popup, as Chrome makes it).
    public let type: String
    /// True for a private-browsing window.
    public let isPrivate: Bool
    /// Where it is on the screen and how big, in points (`windows.Window`'s left, top, width
    /// and height; a new window opens at 0, 0, 1280 × 800).
    public internal(set) var bounds = Bounds.standard
    /// "normal", "minimized", "maximized" or "fullscreen" (Chrome also "locked-fullscreen").
    public internal(set) var state = "normal"

    /// A window's place and size.
    public struct Bounds: Equatable, Sendable {
        public var left: Int, top: Int, width: Int, height: Int
        public init(left: Int, top: Int, width: Int, height: Int) {
            self.left = left
            self.top = top
            self.width = width
            self.height = height
        }
        /// Where a new window opens and how big, when nothing says otherwise.
        public static let standard = Bounds(left: 0, top: 0, width: 1280, height: 800)
    }

    init(id: Int, type: String, isPrivate: Bool) {
        self.id = id
        self.type = type
        self.isPrivate = isPrivate
    }
}
