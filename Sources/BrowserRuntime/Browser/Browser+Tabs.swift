import BlockerCore
import Foundation
import JSKit
import WebRuntime

extension Browser {
    /// Opens a tab on `url` (made active by default) in `window` (the focused normal window by
    /// default) at `index` among its tabs (the end by default; pinned tabs stay first) and
    /// loads it; `tabs.onCreated` fires before it loads. `host` is the extension whose call
    /// opened it (tabs.create, windows.create, runtime.openOptionsPage); `opener` the tab it
    /// was opened from (`openerTabId`).
    /// - Throws: ``BrowserError`` when no page is mapped to `url`.
    @discardableResult
    public func openTab(url: String, active: Bool = true, isPrivate: Bool = false, in window: BrowserWindow? = nil,
                        openedBy host: ExtensionHost? = nil, index: Int? = nil, pinned: Bool = false, muted: Bool = false,
                        opener: Tab? = nil) throws -> Tab {
        let window = window ?? defaultWindow()
        let tab = Tab(id: nextTabID, url: url, isPrivate: isPrivate, windowID: window.id)
        nextTabID += 1
        if let host {
            extensionOpenedTabs += 1
            tab.openedBy = host.id
            tab.openedOrder = extensionOpenedTabs
        }
        tab.isPinned = pinned
        tab.isMuted = muted
        tab.openerTabID = opener?.id
        place(tab, at: index)
        trace.record(.navigation, at: "tab\(tab.id)", "open" + (isPrivate ? " (private)" : "") + (window.id == 1 ? "" : " in window\(window.id)")
                     + (host.map { " by \($0.bundle.manifest.name)" } ?? ""))
        for extensionHost in extensions {
            broadcast("tabs.onCreated", json: [tabJSON(tab, for: extensionHost)], to: extensionHost)
        }
        // A window always has an active tab: the first tab of an empty window is active even
        // when asked not to be (both browsers).
        if active || !tabs.contains(where: { $0.windowID == window.id && $0.isActive }) { activate(tab) }
        try navigate(tab, to: url)
        return tab
    }

    /// Puts `tab` (not in ``tabs`` yet, or taken out of it) at `index` among the tabs of its
    /// window: nil or past the end is the end, and pinned tabs stay before the others, as both
    /// browsers keep them (Chromium's TabStripModel::ConstrainInsertionIndex). Returns the index
    /// it got.
    @discardableResult
    func place(_ tab: Tab, at index: Int?) -> Int {
        let siblings = tabs.indices.filter { tabs[$0].windowID == tab.windowID }
        let pinned = siblings.filter { tabs[$0].isPinned }.count
        var place = min(max(index ?? siblings.count, 0), siblings.count)
        place = tab.isPinned ? min(place, pinned) : max(place, pinned)
        let at = place < siblings.count ? siblings[place] : (siblings.last.map { $0 + 1 } ?? tabs.count)
        tabs.insert(tab, at: at)
        return place
    }

    /// The index of `tab` among the tabs of its window.
    func windowIndex(of tab: Tab) -> Int { tabs.filter { $0.windowID == tab.windowID }.firstIndex { $0 === tab } ?? 0 }

    /// Makes `tab` the active tab of its window and fires `tabs.onActivated`, then
    /// `tabs.onHighlighted`: activating a tab makes it the window's whole selection (Chromium's
    /// TabStripModel, and WebKit's didSelectTabs for Safari).
    public func activate(_ tab: Tab) { activate(tab, selecting: [tab]) }

    /// Activates `tab` with `selection` (which holds it) as its window's highlighted tabs.
    func activate(_ tab: Tab, selecting selection: [Tab]) {
        guard !tab.isActive else { return }
        let previous = tabs.filter { $0.isActive && $0.windowID == tab.windowID }
        for other in previous { other.isActive = false }
        if !previous.isEmpty, tab.windowID == focusedWindow?.id { dismissPopups(because: "the active tab changed") }
        tab.isActive = true
        // A shown tab is no longer discarded (it reloads in the browser; here its page stayed).
        tab.isDiscarded = false
        trace.record(.navigation, at: "tab\(tab.id)", "activate")
        // The tab that was in front goes hidden, then this one visible (HTML 6.2).
        for other in previous { setVisibility(of: other, hidden: true) }
        setVisibility(of: tab, hidden: false)
        broadcast("tabs.onActivated", json: [JSONText.object([("tabId", "\(tab.id)"), ("windowId", "\(tab.windowID)")])])
        select(selection, in: tab.windowID)
    }

    /// Makes `chosen` the selection (highlighted tabs) of window `windowID` and fires
    /// `tabs.onHighlighted` with the selection's ids in tab order when it changed.
    func select(_ chosen: [Tab], in windowID: Int) {
        let inWindow = tabs.filter { $0.windowID == windowID }
        var changed = false
        for tab in inWindow {
            let highlighted = chosen.contains { $0 === tab }
            if tab.isHighlighted != highlighted { tab.isHighlighted = highlighted; changed = true }
        }
        guard changed else { return }
        let ids = inWindow.filter(\.isHighlighted).map { "\($0.id)" }
        broadcast("tabs.onHighlighted", json: [JSONText.object([("tabIds", "[" + ids.joined(separator: ",") + "]"), ("windowId", "\(windowID)")])])
    }

    /// Gives Web Storage (JS/storage/web-storage.js) each document's tab: sessionStorage belongs to the
    /// tab, and a private tab's storage is its own.
    func installStorageHook() throws {
        let realm = session.realm.context
        try session.realm.engine.property("hooks").set("storageScope", realm.function("storageScope", length: 1) { [weak self] call in
            guard let self, let tabID = self.pageTabs[Int(try call.argument(0).toNumber())], let tab = self.tab(tabID) else { return call.context.null }
            return try call.context.value(["session": "tab\(tab.id)", "isPrivate": tab.isPrivate])
        })
    }

    /// Queues, for every document of `tab`, its visibility change and `visibilitychange` event.
    func setVisibility(of tab: Tab, hidden: Bool) {
        for frame in tab.allFrames {
            guard let page = frame.page, !page.isClosed else { continue }
            loop.schedule(owner: page.id, label: "visibility of tab\(tab.id)") { [weak page] in
                guard let page, !page.isClosed else { return }
                do {
                    try page.handle.invoke("setVisibility", [page.handle.context.string(hidden ? "hidden" : "visible"), page.handle.context.boolean(false)])
                } catch let error as JSError {
                    page.report(JSErrorReport(error: error, during: "visibilitychange"), world: "page")
                } catch {}
            }
        }
    }

    /// Loads `url` in `tab`: the old page and its frames are closed (their content worlds die,
    /// its "once" permission lapses, Safari clears the tab's toolbar customizations), the new
    /// page is parsed with every permitted extension's content scripts, and its iframes load
    /// before its `load` event.
    /// - Throws: ``BrowserError`` when no page is mapped to `url`.
    public func navigate(_ tab: Tab, to url: String) throws { try navigate(tab, to: url, redirects: 0) }

    private func navigate(_ tab: Tab, to url: String, redirects: Int) throws {
        // An installed extension's page comes from its bundle (rules never apply to it).
        let extensionPage = extensionHost(owning: url)
        let mapped = extensionPage.map({ extensionPageSource(url, host: $0) }) ?? pageSource(url)
        let request = NetworkRequest(url: url, type: .mainFrame, tabID: tab.id, documentURL: nil)
        // A URL with no page may still be redirected by a rule before anything loads.
        guard mapped != nil || (extensionPage == nil && decide(request, record: false).redirectURL != nil) else {
            throw BrowserError("no page for '\(url)': map it to a fixture file")
        }
        trace.record(.navigation, at: "tab\(tab.id)", "navigate \(url)")
        let frame = Frame(id: 0, parent: nil, tab: tab, url: url, element: nil)
        fireWebNavigation("onBeforeNavigate", frame: frame)
        // The navigation is a new page for declarativeNetRequest's action count (Chromium's
        // ActionTracker resets a tab's count when its main frame navigates).
        for host in extensions where host.action.actionCounts[tab.id] != nil {
            let before = host.action.effective(tab: tab.id)
            host.action.actionCounts[tab.id] = nil
            traceToolbarChange(host, tab: tab.id, before: before, reason: "navigation reset the action count")
        }
        // The navigation itself is a main_frame request: rules may block or redirect it.
        let decision = extensionPage == nil ? decide(request) : .allowed
        if let target = decision.redirectURL, !decision.blocked {
            guard redirects < Self.redirectLimit else {
                trace.record(.network, at: "tab\(tab.id)", "GET \(target) main_frame failed: more than \(Self.redirectLimit) redirects")
                throw BrowserError("navigation to '\(url)' redirected more than \(Self.redirectLimit) times")
            }
            return try navigate(tab, to: target, redirects: redirects + 1)
        }
        let navigationBlocked = decision.blocked
        let html = navigationBlocked ? "<!DOCTYPE html><title>Blocked</title>" : (mapped ?? "")
        if tab.page != nil {
            if let oldHost = URLComponents(string: tab.url)?.host?.lowercased(), sitePermissions[oldHost] == .once {
                sitePermissions[oldHost] = nil
                trace.record(.navigation, at: "browser", "site permission \(oldHost) granted once has lapsed")
            }
        }
        if let top = tab.frames[0] { closeFrame(top) }
        for frame in tab.allFrames { closeFrame(frame) }
        tab.page = nil
        // activeTab lasts until the tab commits a page of another origin (WebKit
        // WebExtensionContext::didCommitLoadForFrame clears the grant when the site changes).
        if URLOrigin.of(tab.url) != URLOrigin.of(url), activeTabGrants.remove(tab.id) != nil {
            trace.record(.navigation, at: "tab\(tab.id)", "activeTab grant lapsed")
        }
        for host in extensions { clearTabCustomizations(host, tab: tab) }
        tab.url = url
        tab.navigationCount += 1
        // A new page is not in Reader, and a loaded tab is not discarded.
        let leftReader = tab.isInReaderMode
        tab.isInReaderMode = false
        tab.isDiscarded = false
        tab.frames = [0: frame]
        broadcastTabUpdate(tab, change: [("status", "\"loading\""), ("url", JSONText.string(url))] + (leftReader ? [("isInReaderMode", "false")] : []))

        let page = try openDocument(frame, html: html, scriptsAllowed: !navigationBlocked, extensionPage: extensionPage)
        // A task run while the page was still arriving may have navigated the tab again.
        guard !page.isClosed else { return }
        loop.schedule(owner: page.id, label: "tab\(tab.id) complete") { [weak self, weak tab, weak page] in
            guard let self, let tab, let page, !page.isClosed else { return }
            self.broadcastTabUpdate(tab, change: [("status", "\"complete\"")])
        }
    }

    /// Issues the parsed document's resource loads, decides each, and fires `load` or `error`
    /// on its element in a later task (a blocked load fails as in Safari: an `error` event).
    /// Iframes are left to ``loadChildFrames(of:in:)``.
    func requestSubresources(of page: Page, in frame: Frame) throws {
        let list = try page.handle.invoke("subresources")
        let count = Int(try list["length"].toNumber())
        var outcomes: [(element: JSValue, failed: Bool)] = []
        for index in 0..<count {
            let entry = list[index]
            guard let url = entry["url"].stringValue, let type = entry["type"].stringValue.flatMap(DNRResourceType.init(rawValue:)) else { continue }
            if type == .subFrame, entry["element"]["localName"].stringValue == "iframe" { continue }
            let request = NetworkRequest(url: url, type: type, tabID: frame.tab.id, documentURL: frame.effectiveURL,
                                         frameChain: frame.chain, frameID: frame.id)
            // Unmapped resources load empty: a fixture need not supply bodies to exercise the rules.
            outcomes.append((entry["element"], carry(request).blocked))
        }
        guard !outcomes.isEmpty else { return }
        loop.schedule(owner: page.id, label: "subresource loads of \(page.url)") { [weak self, weak page] in
            guard let self, let page, !page.isClosed else { return }
            for outcome in outcomes { self.dispatch(outcome.failed ? "error" : "load", at: outcome.element, in: page) }
        }
    }

    /// Reloads `tab`'s current URL.
    /// - Throws: as ``navigate(_:to:)``.
    public func reload(_ tab: Tab) throws {
        prepareReload(tab)
        try navigate(tab, to: tab.url)
    }

    /// Closes `tab` and fires `tabs.onRemoved`; its window closes with its last tab.
    public func close(_ tab: Tab) { close(tab, windowClosing: false) }

    func close(_ tab: Tab, windowClosing: Bool) {
        guard let index = tabs.firstIndex(where: { $0 === tab }) else { return }
        trace.record(.navigation, at: "tab\(tab.id)", "close")
        for frame in tab.allFrames.reversed() { closeFrame(frame) }
        tab.page = nil
        forgetHistory(of: tab)
        activeTabGrants.remove(tab.id)
        tabs.remove(at: index)
        for host in extensions { host.action.tabs[tab.id] = nil }
        broadcast("tabs.onRemoved", json: ["\(tab.id)", JSONText.object([("isWindowClosing", windowClosing ? "true" : "false"), ("windowId", "\(tab.windowID)")])])
        guard !windowClosing, let window = window(tab.windowID) else { return }
        let remaining = tabs(in: window)
        if tab.isActive, let next = remaining.last { activate(next) }
        // Closing a window's last tab closes the window, except the browser's first window,
        // which this runtime keeps for the next tab.
        if remaining.isEmpty, window.id != 1 { closeWindow(window) }
    }

    /// The tab with `id`.
    public func tab(_ id: Int) -> Tab? { tabs.first { $0.id == id } }

    /// True when `host` may see `tab`'s URL and title (Safari withholds them otherwise, as
    /// Chromium does without the "tabs" permission): host access, "tabs", activeTab, or its own page.
    func seesURL(of tab: Tab, _ host: ExtensionHost) -> Bool {
        mayAccess(host, url: tab.url, tab: tab) || host.bundle.manifest.has("tabs") || hasActiveTab(host, tab: tab) || owns(host, url: tab.url)
    }

    /// `tabs.Tab` as JSON for `host`, with the fields each browser reports: Safari's
    /// (WebKit's WebExtensionTab::parameters and toWebAPI: selected and highlighted, pinned,
    /// audible, mutedInfo, status, incognito, isArticle and isInReaderMode, the size, the
    /// opener) or Chrome's (ExtensionTabUtil::CreateTabObject: also discarded, autoDiscardable,
    /// frozen and groupId). The size is the window's (no toolbar is drawn); nothing plays, so
    /// no tab is audible.
    func tabJSON(_ tab: Tab, for host: ExtensionHost) -> String {
        let window = window(tab.windowID)
        let bool = { (flag: Bool) in flag ? "true" : "false" }
        var muted: [(String, String)] = [("muted", bool(tab.isMuted))]
        var fields: [(String, String)] = [
            ("id", "\(tab.id)"), ("windowId", "\(tab.windowID)"), ("active", bool(tab.isActive)),
            ("incognito", bool(tab.isPrivate)), ("index", "\(windowIndex(of: tab))"),
            ("status", options.profile == .chromium && tab.isDiscarded ? "\"unloaded\"" : tab.page?.readyState == "complete" ? "\"complete\"" : "\"loading\""),
            ("highlighted", bool(tab.isHighlighted)), ("selected", bool(tab.isHighlighted)), ("pinned", bool(tab.isPinned)),
            ("audible", "false"), ("width", "\(window?.bounds.width ?? 0)"), ("height", "\(window?.bounds.height ?? 0)"),
        ]
        if let opener = tab.openerTabID { fields.append(("openerTabId", "\(opener)")) }
        if options.profile == .chromium {
            fields += [("discarded", bool(tab.isDiscarded)), ("autoDiscardable", bool(tab.autoDiscardable)), ("frozen", "false"), ("groupId", "\(tab.groupID)")]
            if tab.isMuted, let by = tab.mutedBy { muted += [("reason", "\"extension\""), ("extensionId", JSONText.string(by))] }
        } else {
            fields += [("isArticle", bool(isArticle(tab))), ("isInReaderMode", bool(tab.isInReaderMode))]
        }
        fields.append(("mutedInfo", JSONText.object(muted)))
        if seesURL(of: tab, host) {
            fields.append(("url", JSONText.string(tab.url)))
            fields.append(("title", JSONText.string(tab.title)))
        }
        return JSONText.object(fields)
    }

    /// Safari offers Reader for an article: here, a page with an `<article>` element (Safari's
    /// own Reader heuristics weigh the text; a fixture says what it is by its markup).
    /// Decided once a page has loaded (Safari decides when loading finishes), and kept for it:
    /// every tabs.Tab asks.
    func isArticle(_ tab: Tab) -> Bool {
        guard let page = tab.page, !page.isClosed else { return false }
        if let known = tab.articleCache, known.page == page.id { return known.isArticle }
        let found = (try? page.document.invoke("querySelector", [page.document.context.string("article")]))?.isObject == true
        if page.readyState == "complete" { tab.articleCache = (page.id, found) }
        return found
    }

    func broadcastTabUpdate(_ tab: Tab, change: [(String, String)]) {
        for host in extensions {
            var visible = change
            if !seesURL(of: tab, host) {
                visible.removeAll { $0.0 == "url" || $0.0 == "title" }
            }
            guard !visible.isEmpty else { continue }
            wakeIfNeeded(host, for: "tabs.onUpdated")
            for context in liveContexts(of: host) where context.kind.isPrivileged {
                context.dispatch("tabs.onUpdated", json: ["\(tab.id)", JSONText.object(visible), tabJSON(tab, for: host)])
            }
        }
    }

    /// True when the user invoked `host` on `tab` (activeTab) and the grant still holds.
    func hasActiveTab(_ host: ExtensionHost, tab: Tab) -> Bool {
        host.bundle.manifest.has("activeTab") && activeTabGrants.contains(tab.id)
    }

    /// Fires `event` in every privileged context of every extension (of `only`, when given).
    func broadcast(_ event: String, json arguments: [String], to only: ExtensionHost? = nil) {
        for host in extensions where only == nil || only === host {
            wakeIfNeeded(host, for: event)
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
