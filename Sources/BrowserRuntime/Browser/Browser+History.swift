import JSKit
import WebRuntime

/// Session history in the browser: each tab's top-level documents share one history
/// (JS/navigation/history.js keeps it), a page's same-document URL changes reach the tab, and the
/// navigations a page asks for (`location.href = …`, `location.replace`, `reload`, a traversal to
/// another document's entry) load in its tab.
extension Browser {
    var historyLayer: JSValue { session.realm.engine["web"]["history"] }

    func installHistoryHooks() {
        session.urlChanged = { [unowned self] page, url, kind in self.urlChanged(page, url: url, kind: kind) }
        session.navigationRequested = { [unowned self] page, url, kind in self.navigationRequested(page, url: url, kind: kind) }
    }

    /// A same-document URL change (pushState, replaceState, a fragment, a traversal): the frame
    /// and tab take the URL, and `tabs.onUpdated` reports it with only `url` changed, as for any
    /// change of a tab's URL that loads nothing.
    private func urlChanged(_ page: Page, url: String, kind: String) {
        guard let frame = pageFrames[page.id], frame.page === page else { return }
        let previous = frame.url
        frame.url = url
        trace.record(.navigation, at: frameLocation(frame), "\(kind) \(url)")
        // Chrome reports same-document changes (webNavigation.onHistoryStateUpdated for the
        // history API, onReferenceFragmentUpdated for a fragment; a traversal says forward_back);
        // WebKit's webNavigation has neither event.
        if options.profile == .chromium {
            let withoutFragment = { (text: String) in text.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? text }
            let fragmentOnly = kind == "fragment" || (kind == "traversal" && withoutFragment(previous) == withoutFragment(url))
            let qualifiers = kind == "traversal" ? #"["forward_back"]"# : "[]"
            fireWebNavigation(fragmentOnly ? "onReferenceFragmentUpdated" : "onHistoryStateUpdated", frame: frame,
                              extra: [("transitionQualifiers", qualifiers), ("transitionType", JSONText.string("link"))])
        }
        guard frame.id == 0 else { return }
        frame.tab.url = url
        broadcastTabUpdate(frame.tab, change: [("url", JSONText.string(url))])
    }

    /// A page asks to load another document in its place: its tab, or its frame, navigates in a
    /// task of its own, as WebKit's NavigationScheduler does. A frame keeps its id, and its new
    /// document is a sub_frame request the rules decide, as when the frame first loaded.
    private func navigationRequested(_ page: Page, url: String, kind: String) -> Bool {
        guard let frame = pageFrames[page.id], frame.page === page else { return false }
        guard frame.id == 0 else {
            guard let element = frame.element, frame.parent != nil else { return false }
            loop.schedule(label: "navigation of \(frameLocation(frame)) to \(url)") { [weak self, weak frame, weak page] in
                guard let self, let frame, let page, frame.page === page, !page.isClosed, let parent = frame.parent else { return }
                do {
                    try self.loadFrame(element: element, url: url, srcdoc: nil, parent: parent, id: frame.id)
                } catch {
                    self.trace.record(.error, at: self.frameLocation(frame), "navigation to \(url) (\(kind)) failed: \(error)")
                }
            }
            return true
        }
        let tab = frame.tab
        loop.schedule(label: "navigation of tab\(tab.id) to \(url)") { [weak self, weak tab, weak page] in
            guard let self, let tab, let page, tab.page === page, !page.isClosed else { return }
            do {
                try self.navigate(tab, to: url)
            } catch {
                _ = try? self.historyLayer.invoke("cancel", [self.session.realm.context.number(Double(page.id))])
                self.trace.record(.error, at: "tab\(tab.id)", "navigation to \(url) (\(kind)) failed: \(error)")
            }
        }
        return true
    }

    /// The back button: the tab's history goes one entry back (a task, as `history.back()`).
    public func goBack(_ tab: Tab) throws { try traverse(tab, by: -1) }

    /// The forward button.
    public func goForward(_ tab: Tab) throws { try traverse(tab, by: 1) }

    private func traverse(_ tab: Tab, by delta: Int) throws {
        guard let page = tab.page, !page.isClosed else { throw BrowserError("tab\(tab.id) shows no page") }
        _ = try historyLayer.invoke("traverse", [session.realm.context.number(Double(page.id)), session.realm.context.number(Double(delta))])
    }

    /// How many entries the tab's session history has, and which one it shows (from 0).
    public func history(of tab: Tab) -> (count: Int, index: Int) {
        guard let page = tab.page, let pair = try? historyLayer.invoke("entries", [session.realm.context.number(Double(page.id))]),
              let count = pair[0].numberValue, let index = pair[1].numberValue else { return (0, -1) }
        return (Int(count), Int(index))
    }

    /// The next document of `tab` is a reload of its current entry (the entry and its state stay).
    func prepareReload(_ tab: Tab) {
        guard let page = tab.page, !page.isClosed else { return }
        _ = try? historyLayer.invoke("willReload", [session.realm.context.number(Double(page.id))])
    }

    /// The tab has closed: its history goes.
    func forgetHistory(of tab: Tab) {
        _ = try? historyLayer.invoke("forget", [session.realm.context.string("tab\(tab.id)")])
    }
}
