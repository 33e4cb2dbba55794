import WebRuntime

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
