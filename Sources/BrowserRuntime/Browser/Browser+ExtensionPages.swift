import Foundation
import JSKit
import WebRuntime

/// Extension pages outside the popup: a tab or window an extension opens on one of its own
/// URLs (tabs.create, windows.create, runtime.openOptionsPage), an options page, and an
/// extension page framed by another page. Each is a privileged context of its extension, with
/// `browser.*` as its background has it; no content script runs there.
extension Browser {
    /// True when `url` is one of `host`'s own pages or files.
    func owns(_ host: ExtensionHost, url: String) -> Bool { url.hasPrefix(host.bundle.url("")) }

    /// The installed extension whose URL `url` is.
    func extensionHost(owning url: String) -> ExtensionHost? {
        guard ExtensionBundle.schemeLength(of: url) != nil else { return nil }
        return extensions.first { owns($0, url: url) }
    }

    /// The URL an extension means by `text` in tabs.create/update and windows.create: an
    /// absolute URL as written; a relative one against the extension's base URL in Safari
    /// (WebExtensionAPITabsCocoa.mm, parseTabUpdateOptions: `URL { baseURL, url }`) and against
    /// the calling page in Chrome ("relative to the current page"; a background's page is its
    /// script at the root). Nil when it is no URL.
    func resolveURL(_ text: String, from context: ExtensionContext) -> String? {
        if let scheme = URLComponents(string: text)?.scheme, !scheme.isEmpty { return text }
        let base = options.profile == .chromium ? (context.world.page?.url ?? context.host.bundle.url("")) : context.host.bundle.url("")
        guard let baseURL = URL(string: base), let resolved = URL(string: text, relativeTo: baseURL) else { return nil }
        return resolved.absoluteString
    }

    /// The document for a navigation to one of an extension's pages: its file, or a browser
    /// error page when the extension has no such file (a tab still opens, as in both browsers).
    func extensionPageSource(_ url: String, host: ExtensionHost) -> String {
        if let text = extensionResource(url, for: url) { return text }
        trace.record(.navigation, at: "browser", "\(url): no such file in \(host.bundle.manifest.name)")
        return "<!DOCTYPE html><title>File not found</title>"
    }

    /// Makes `page`, an extension page in `frame`, its extension's privileged context;
    /// `window.close()` from a top-level one closes its tab once the running script ends (an
    /// extension may close the pages it shows).
    func attachExtensionPage(_ page: Page, host: ExtensionHost, frame: Frame) throws {
        let tab = frame.tab
        _ = try makeContext(for: host, kind: .tab(tabID: tab.id, frameID: frame.id), world: page.pageWorld)
        guard frame.id == 0 else { return }
        let tabID = tab.id
        let close = page.pageWorld.context.function("close") { [weak self, weak page] _ in
            guard let self, let page else { return nil }
            self.loop.schedule(label: "extension page window.close()") { [weak self, weak page] in
                guard let self, let page, !page.isClosed, let tab = self.tab(tabID), tab.page === page else { return }
                self.close(tab)
            }
            return nil
        }
        try page.pageWorld.global.set("close", close)
    }

    /// Opens `host`'s options page (`options_ui.page` or `options_page`) as
    /// `runtime.openOptionsPage()` does: in Safari a new active tab at the end of the window in
    /// front (WebExtensionContextAPIRuntimeCocoa.mm, runtimeOpenOptionsPage); in Chrome the tab
    /// already showing it comes to the front instead, when there is one.
    /// - Throws: ``BrowserError`` with the browser's message when the manifest names no
    ///   options page.
    @discardableResult
    public func openOptionsPage(of host: ExtensionHost) throws -> Tab {
        guard let options = host.bundle.manifest.options else {
            // Chromium: extensions/browser/api/runtime/runtime_api.cc, kFailedToCreateOptionsPage.
            throw BrowserError(self.options.profile == .chromium ? "Could not create an options page."
                : "Invalid call to runtime.openOptionsPage(). No options page is specified in the manifest.")
        }
        let url = host.bundle.url(options.page)
        if self.options.profile == .chromium, let open = tabs.first(where: { $0.url == url }) {
            activate(open)
            if let window = window(open.windowID) { focus(window) }
            return open
        }
        return try openTab(url: url, openedBy: host)
    }

    /// The tabs extensions opened, in the order they opened them (closed ones left out).
    public var extensionOpenedTabsInOrder: [Tab] {
        tabs.filter { $0.openedOrder != nil }.sorted { ($0.openedOrder ?? 0) < ($1.openedOrder ?? 0) }
    }

    /// The tab an extension opened that `address` names: `N` for the N-th tab extensions opened
    /// (from 1, counting closed ones), or a URL, or a path of the extension (`options.html`),
    /// for the last open tab an extension opened on it.
    public func extensionOpenedTab(_ address: String) -> Tab? {
        if let order = Int(address) { return tabs.first { $0.openedOrder == order } }
        let opened = extensionOpenedTabsInOrder
        if let tab = opened.last(where: { $0.url == address }) { return tab }
        let path = address.hasPrefix("/") ? String(address.dropFirst()) : address
        return opened.last { tab in
            guard let id = tab.openedBy, let host = extensionHost(id) else { return false }
            return tab.url == host.bundle.url(path)
        }
    }
}
