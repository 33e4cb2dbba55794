import Foundation
import JSKit
import WebRuntime

extension Browser {
    /// How long a click's transient activation lasts (WebKit,
    /// Source/WebCore/page/LocalDOMWindow.cpp, defaultTransientActivationDuration: 5 s).
    public static let transientActivation = VirtualTime.seconds(5)

    /// Clicks `host`'s toolbar button on `tab` (the active tab by default), a trusted user
    /// gesture: activeTab is granted for the tab when the manifest requests it, then the popup
    /// opens if the manifest names one; otherwise `action.onClicked(tab)` fires in the background
    /// (waking it), with the gesture in force while its listeners run.
    /// - Returns: the popup page, or nil when the click went to `action.onClicked`.
    /// - Throws: ``BrowserError`` when there is no tab; as ``openPopup(_:in:)``.
    @discardableResult
    public func clickAction(of host: ExtensionHost, in tab: Tab? = nil) throws -> Page? {
        guard let tab = tab ?? activeTab else { throw BrowserError("no tab to click '\(host.bundle.manifest.name)' in: open a tab first") }
        let state = host.action.effective(tab: tab.id)
        if state.enabled == false {
            // A disabled button does nothing (action.disable).
            trace.record(.toolbar, at: "tab\(tab.id)", "click \(host.bundle.manifest.name) (disabled: nothing happens)")
            return nil
        }
        if let popup = state.popup, !popup.isEmpty { return try openPopup(host, in: tab, file: popup) }
        trace.record(.toolbar, at: "tab\(tab.id)", "click \(host.bundle.manifest.name)")
        grantActiveTab(host, tab: tab)
        wakeIfNeeded(host, for: "action.onClicked")
        for context in liveContexts(of: host) where context.kind.isPrivileged {
            context.dispatch("action.onClicked", json: [tabJSON(tab, for: host)], userGesture: true)
        }
        return nil
    }

    /// Opens `host`'s action popup (`action.default_popup`) as the user does by clicking the
    /// toolbar button on `tab` (the active tab by default): activeTab is granted for the tab,
    /// the popup's page is its own privileged context (`browser.*` as in the background) with
    /// transient user activation for ``transientActivation`` (getMatchedRules is exempt from its
    /// quota meanwhile). An open popup closes first.
    /// - Throws: ``BrowserError`` when the manifest names no popup or there is no tab;
    ///   ``ManifestError`` when the popup file cannot be read.
    @discardableResult
    public func openPopup(_ host: ExtensionHost, in tab: Tab? = nil, file chosen: String? = nil) throws -> Page {
        let manifest = host.bundle.manifest
        let noPopup = BrowserError("'\(manifest.name)' has no popup: its manifest sets no action.default_popup")
        let anySet = host.action.tabs.values.contains { !($0.popup ?? "").isEmpty } || !(host.action.global.popup ?? "").isEmpty
        guard chosen != nil || manifest.action?.defaultPopup != nil || anySet else { throw noPopup }
        guard let tab = tab ?? activeTab else { throw BrowserError("no tab to open the popup of '\(manifest.name)' on: open a tab first") }
        // The tab's popup (action.setPopup), else the manifest's.
        guard let file = chosen ?? host.action.effective(tab: tab.id).popup.flatMap({ $0.isEmpty ? nil : $0 }) else {
            throw BrowserError("'\(manifest.name)' has no popup on tab\(tab.id): action.setPopup removed it")
        }
        closePopup(host.id)
        trace.record(.toolbar, at: "tab\(tab.id)", "click \(manifest.name) (popup \(file))")
        grantActiveTab(host, tab: tab)
        let html = try host.bundle.text(file)
        let url = host.bundle.url(file)
        loadingExtensionPage = url
        defer { loadingExtensionPage = nil }
        return try withUserGesture {
            try session.open(html: html, url: url, beforeLoad: { [unowned self] page in
                self.popups[host.id] = page
                let context = try self.makeContext(for: host, kind: .popup, world: page.pageWorld)
                context.activationExpiry = self.loop.now + Self.transientActivation
                // window.close() dismisses the popover, once the running script has finished
                // (HTML "close a browsing context" is queued, not done in the middle of a script).
                // The function keeps only the extension's id: holding the host would keep its
                // JavaScript values, and with them the session's realms, alive from the heap.
                let extensionID = host.id
                let close = page.pageWorld.context.function("close") { [weak self, weak page] call in
                    guard let self, let page else { return nil }
                    self.loop.schedule(label: "popup window.close()") { [weak self, weak page] in
                        guard let self, let page, self.popups[extensionID] === page else { return }
                        self.closePopup(extensionID)
                    }
                    return nil
                }
                try page.pageWorld.global.set("close", close)
            })
        }
    }

    /// The open popup of `host`, if any.
    public func popup(of host: ExtensionHost) -> Page? { popups[host.id] }

    /// Closes `host`'s popup (as clicking elsewhere does): its context dies, its ports disconnect.
    public func closePopup(of host: ExtensionHost) { closePopup(host.id) }

    func closePopup(_ extensionID: String) {
        guard let page = popups.removeValue(forKey: extensionID) else { return }
        trace.record(.navigation, at: extensions.count > 1 ? "popup:\(extensionHost(extensionID)?.bundle.manifest.name ?? extensionID)" : "popup", "closed")
        page.close()
        contexts = contexts.filter { $0.value.world.page !== page }
        disconnectPorts(of: page)
    }

    /// An open popover closes when the user's attention moves: another tab of its window comes
    /// to the front, or another window. It closes in a task of its own, after the script that
    /// caused it (a popup's `tabs.create` finishes its handler first).
    func dismissPopups(because reason: String) {
        for extensionID in popups.keys.sorted() {
            let page = popups[extensionID]
            loop.schedule(label: "popup dismissed") { [weak self, weak page] in
                guard let self, let page, self.popups[extensionID] === page else { return }
                self.trace.record(.navigation, at: "browser", "popup dismissed: \(reason)")
                self.closePopup(extensionID)
            }
        }
    }

    /// Runs `body` as the handling of trusted user input: ``inUserGesture`` is true meanwhile
    /// (Chromium exempts getMatchedRules calls made then from its quota).
    /// - Throws: what `body` throws.
    public func withUserGesture<T>(_ body: () throws -> T) rethrows -> T {
        let previous = inUserGesture
        inUserGesture = true
        defer { inUserGesture = previous }
        return try body()
    }

    /// activeTab: a user invocation grants the extension the tab's site until the tab commits a
    /// page of another origin or closes (when the manifest requests "activeTab").
    func grantActiveTab(_ host: ExtensionHost, tab: Tab) {
        guard host.bundle.manifest.has("activeTab"), !activeTabGrants.contains(tab.id) else { return }
        activeTabGrants.insert(tab.id)
        trace.record(.navigation, at: "tab\(tab.id)", "activeTab granted to \(host.bundle.manifest.name)")
    }
}
