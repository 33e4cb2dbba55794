/// Whether an extension may run on a site, as Safari's per-website permission records it.
public enum SitePermission: String, Sendable, CaseIterable {
    /// "Always Allow on This Website".
    case always
    /// Allowed for the current page only: cleared when the tab navigates.
    case once
    /// "Never Allow on This Website".
    case denied
    /// Not decided yet: Safari asks, and until the user answers nothing runs.
    case notAsked = "not-asked"

    /// True when content scripts, CSS and feedback may touch the site.
    public var grants: Bool { self == .always || self == .once }
}

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

    init(id: Int, url: String, isPrivate: Bool) {
        self.id = id
        self.url = url
        self.isPrivate = isPrivate
    }

    /// The document title, or "" when there is no page.
    public var title: String { page?.document["title"].stringValue ?? "" }
}
