import BlockerCore
import Foundation
import JSKit

extension Browser {
    /// Opens a tab on `url` (made active by default) and loads it.
    /// - Throws: ``BrowserError`` when no page is mapped to `url`.
    @discardableResult
    public func openTab(url: String, active: Bool = true, isPrivate: Bool = false) throws -> Tab {
        let tab = Tab(id: nextTabID, url: url, isPrivate: isPrivate)
        nextTabID += 1
        tabs.append(tab)
        trace.record(.navigation, at: "tab\(tab.id)", "open" + (isPrivate ? " (private)" : ""))
        if active { activate(tab) }
        try navigate(tab, to: url)
        return tab
    }

    /// Makes `tab` the active tab and fires `tabs.onActivated`.
    public func activate(_ tab: Tab) {
        guard !tab.isActive else { return }
        for other in tabs { other.isActive = false }
        tab.isActive = true
        trace.record(.navigation, at: "tab\(tab.id)", "activate")
        broadcast("tabs.onActivated", json: [JSONText.object([("tabId", "\(tab.id)"), ("windowId", "\(tab.windowID)")])])
    }

    /// Loads `url` in `tab`: the old page is closed (its content worlds die, its "once"
    /// permission lapses, Safari clears the tab's toolbar customizations), the new page is
    /// parsed with every permitted extension's content scripts.
    /// - Throws: ``BrowserError`` when no page is mapped to `url`.
    public func navigate(_ tab: Tab, to url: String) throws {
        guard var html = pageSource(url) else {
            throw BrowserError("no page for '\(url)': map it to a fixture file")
        }
        trace.record(.navigation, at: "tab\(tab.id)", "navigate \(url)")
        // The navigation itself is a main_frame request (rules may block it; ADV's never do).
        let navigationBlocked = decide(NetworkRequest(url: url, type: .mainFrame, tabID: tab.id, documentURL: nil)).blocked
        if navigationBlocked { html = "<!DOCTYPE html><title>Blocked</title>" }
        if let old = tab.page {
            if let oldHost = URLComponents(string: tab.url)?.host?.lowercased(), sitePermissions[oldHost] == .once {
                sitePermissions[oldHost] = nil
                trace.record(.navigation, at: "browser", "site permission \(oldHost) granted once has lapsed")
            }
            old.close()
            pageTabs[old.id] = nil
            tab.page = nil
        }
        for host in extensions { clearTabCustomizations(host, tab: tab) }
        tab.url = url
        tab.navigationCount += 1
        broadcastTabUpdate(tab, change: [("status", "\"loading\""), ("url", JSONText.string(url))])

        var scripts: [ContentScript] = []
        var styleSheets: [(extensionID: String, file: String, css: String)] = []
        for host in extensions where !navigationBlocked && mayAccess(host, url: url, tab: tab) {
            for entry in host.bundle.manifest.contentScripts where entry.applies(to: url) {
                for file in entry.js {
                    scripts.append(ContentScript(extensionID: host.id, source: try host.bundle.text(file), url: host.bundle.url(file), runAt: entry.runAt))
                }
                for file in entry.css {
                    styleSheets.append((host.id, file, try host.bundle.text(file)))
                }
            }
        }
        loadingTab = tab
        defer { loadingTab = nil }
        let page = try session.open(html: html, url: url, contentScripts: scripts) { [unowned self] page in
            self.pageTabs[page.id] = tab.id
            tab.page = page
            // Manifest CSS is injected before any parsing, as WebKit's user stylesheets are:
            // it applies before the page renders and to everything inserted later.
            for sheet in styleSheets {
                try page.injectUserStyleSheet(sheet.css, extensionID: sheet.extensionID)
                self.trace.record(.dom, at: "tab\(tab.id)/content", "user stylesheet \(sheet.file)")
            }
        }
        try requestSubresources(of: page, in: tab)
        loop.schedule(owner: page.id, label: "tab\(tab.id) complete") { [weak self, weak tab] in
            guard let self, let tab else { return }
            self.broadcastTabUpdate(tab, change: [("status", "\"complete\"")])
        }
    }

    /// Issues the parsed document's resource loads, decides each, and fires `load` or `error`
    /// on its element in a later task (a blocked load fails as in Safari: an `error` event).
    func requestSubresources(of page: Page, in tab: Tab) throws {
        let list = try page.handle.invoke("subresources")
        let count = Int(try list["length"].toNumber())
        var outcomes: [(element: JSValue, failed: Bool)] = []
        for index in 0..<count {
            let entry = list[index]
            guard let url = entry["url"].stringValue, let type = entry["type"].stringValue.flatMap(DNRResourceType.init(rawValue:)) else { continue }
            let decision = decide(NetworkRequest(url: url, type: type, tabID: tab.id, documentURL: page.url))
            // Unmapped resources load empty: a fixture need not supply bodies to exercise the rules.
            outcomes.append((entry["element"], decision.blocked))
        }
        guard !outcomes.isEmpty else { return }
        loop.schedule(owner: page.id, label: "subresource loads of \(page.url)") { [weak page] in
            guard let page, !page.isClosed else { return }
            let context = page.pageWorld.context
            for outcome in outcomes {
                guard let event = try? page.pageWorld.global["Event"].construct([context.string(outcome.failed ? "error" : "load")]) else { continue }
                _ = try? outcome.element.invoke("dispatchEvent", [event])
            }
        }
    }

    /// Reloads `tab`'s current URL.
    /// - Throws: as ``navigate(_:to:)``.
    public func reload(_ tab: Tab) throws { try navigate(tab, to: tab.url) }

    /// Closes `tab` and fires `tabs.onRemoved`.
    public func close(_ tab: Tab) {
        guard let index = tabs.firstIndex(where: { $0 === tab }) else { return }
        trace.record(.navigation, at: "tab\(tab.id)", "close")
        if let page = tab.page {
            page.close()
            pageTabs[page.id] = nil
        }
        tab.page = nil
        tabs.remove(at: index)
        for host in extensions { host.action.tabs[tab.id] = nil }
        broadcast("tabs.onRemoved", json: ["\(tab.id)", #"{"isWindowClosing":false,"windowId":1}"#])
        if tab.isActive, let next = tabs.last { activate(next) }
    }

    /// The tab with `id`.
    public func tab(_ id: Int) -> Tab? { tabs.first { $0.id == id } }

    /// `tabs.Tab` as JSON for `host`: url and title only where the extension may access the site
    /// (Safari withholds them otherwise, as Chromium does without the "tabs" permission).
    func tabJSON(_ tab: Tab, for host: ExtensionHost) -> String {
        var fields: [(String, String)] = [
            ("id", "\(tab.id)"), ("windowId", "\(tab.windowID)"), ("active", tab.isActive ? "true" : "false"),
            ("incognito", tab.isPrivate ? "true" : "false"), ("index", "\(tabs.firstIndex { $0 === tab } ?? 0)"),
            ("status", tab.page?.readyState == "complete" ? "\"complete\"" : "\"loading\""),
        ]
        if mayAccess(host, url: tab.url, tab: tab) || host.bundle.manifest.has("tabs") {
            fields.append(("url", JSONText.string(tab.url)))
            fields.append(("title", JSONText.string(tab.title)))
        }
        return JSONText.object(fields)
    }

    func broadcastTabUpdate(_ tab: Tab, change: [(String, String)]) {
        for host in extensions {
            var visible = change
            if !(mayAccess(host, url: tab.url, tab: tab) || host.bundle.manifest.has("tabs")) {
                visible.removeAll { $0.0 == "url" }
            }
            guard !visible.isEmpty else { continue }
            for context in liveContexts(of: host) where context.kind.isPrivileged {
                context.dispatch("tabs.onUpdated", json: ["\(tab.id)", JSONText.object(visible), tabJSON(tab, for: host)])
            }
        }
    }

    /// Fires `event` in every privileged context of every extension.
    func broadcast(_ event: String, json arguments: [String]) {
        for host in extensions {
            for context in liveContexts(of: host) where context.kind.isPrivileged {
                context.dispatch(event, json: arguments)
            }
        }
    }

    /// Safari clears a tab's toolbar customizations when its main frame commits a new page
    /// (WebKit, UIProcess/Extensions/WebExtensionContext.cpp, didCommitLoadForFrame); Chromium
    /// keeps them until the tab closes.
    func clearTabCustomizations(_ host: ExtensionHost, tab: Tab) {
        guard options.profile == .safari, host.action.tabs[tab.id] != nil else { return }
        let before = host.action.effective(tab: tab.id)
        host.action.tabs[tab.id] = nil
        traceToolbarChange(host, tab: tab.id, before: before, reason: "navigation cleared tab customizations")
    }

    /// Records the toolbar state of `tab` when it differs from `before`.
    func traceToolbarChange(_ host: ExtensionHost, tab: Int, before: ActionState.Values, reason: String) {
        let after = host.action.effective(tab: tab)
        guard after != before else { return }
        trace.record(.toolbar, at: "tab\(tab)", "\(ActionState.describe(after)) (\(reason))")
    }
}
