import Foundation
import JSKit
import WebRuntime

extension Browser {
    /// Ends the background (Safari suspends an idle non-persistent background): its globals are
    /// lost; storage and rules stay. It starts again on the next event it listened to: a
    /// message, a connection, a storage change, a tab or navigation event.
    public func suspendBackground(of host: ExtensionHost) {
        guard let page = host.backgroundPage else { return }
        if let pending = host.idleUnloadTask { loop.cancel(pending) }
        host.idleUnloadTask = nil
        trace.record(.navigation, at: locationName(page: page, world: "page"), "suspended")
        if let context = host.backgroundContext {
            host.wakeEvents = Set(((try? context.api.invoke("listening").toSwift()) as? [Any?] ?? []).compactMap { $0 as? String })
            contexts[context.id] = nil
        }
        host.backgroundContext = nil
        host.backgroundPage = nil
        page.close()
        disconnectPorts(of: page)
    }

    /// Starts a suspended background again, as an incoming event does.
    /// - Throws: as ``install(_:)``.
    public func wakeBackground(of host: ExtensionHost) throws {
        try wakeBackground(of: host, reason: nil)
    }

    func wakeBackground(of host: ExtensionHost, reason: String?) throws {
        guard host.isBackgroundSuspended else { return }
        let location = extensions.count > 1 ? "background:\(host.bundle.manifest.name)" : "background"
        trace.record(.navigation, at: location, "started" + (reason.map { " (woken by \($0))" } ?? ""))
        try startBackground(host, event: nil)
    }

    /// Wakes `host`'s suspended background when it listened to `event`, so that its scripts run
    /// (registering their listeners again) before the event is delivered (WebKit,
    /// WebExtensionContext::wakeUpBackgroundContentIfNecessaryToFireEvents). A background that
    /// is running and listens to `event` starts its idle period again, as WebKit reschedules
    /// the unload whenever it fires an event at loaded background content.
    func wakeIfNeeded(_ host: ExtensionHost, for event: String) {
        if !host.isBackgroundSuspended {
            if unloadsIdleBackgrounds, let context = host.backgroundContext, context.hasListeners(event) {
                scheduleIdleUnload(of: host)
            }
            return
        }
        guard host.wakeEvents.contains(event) else { return }
        do {
            try wakeBackground(of: host, reason: event)
        } catch {
            trace.record(.error, at: "background", "could not start the background for \(event): \(error)")
        }
    }

    // MARK: - Idle unload (Safari's timers)

    /// How long a non-persistent background may go without an event before Safari unloads it
    /// (WebKit, WebExtensionContext::scheduleBackgroundContentToUnload: 30 s after it loads and
    /// after each event fired at it).
    static let backgroundIdleDelay = VirtualTime.seconds(30)
    /// While the background has open ports, the unload waits until this long after the last
    /// message the background posted on one (WebKit, WebExtensionContextCocoa.mm,
    /// unloadBackgroundContentIfPossible and its delay for inactive ports).
    static let backgroundPortGrace = VirtualTime.seconds(120)

    /// (Re)starts `host`'s idle period when idle unloading is on.
    func scheduleIdleUnload(of host: ExtensionHost) {
        guard unloadsIdleBackgrounds, host.backgroundPage != nil else { return }
        if let pending = host.idleUnloadTask { loop.cancel(pending) }
        host.idleUnloadTask = loop.schedule(after: Self.backgroundIdleDelay, label: "idle unload of \(host.bundle.manifest.name)") { [weak self, weak host] in
            guard let self, let host else { return }
            host.idleUnloadTask = nil
            self.unloadIfIdle(host)
        }
    }

    private func unloadIfIdle(_ host: ExtensionHost) {
        guard let page = host.backgroundPage, let context = host.backgroundContext else { return }
        let hasOpenPorts = ports.values.contains { channel in
            channel.opener === context || channel.receivers.contains { $0 === context }
        }
        if hasOpenPorts, let last = host.lastBackgroundPortActivity, loop.now - last < Self.backgroundPortGrace {
            scheduleIdleUnload(of: host)
            return
        }
        trace.record(.navigation, at: locationName(page: page, world: "page"), "idle for \(Self.backgroundIdleDelay): unloading")
        suspendBackground(of: host)
    }

    /// Quits and relaunches the browser: every tab and popup closes, backgrounds stop, and then
    /// each extension's background starts with `runtime.onStartup`. What survives is what a
    /// browser keeps on disk: storage.local, dynamic rules, the enabled static rulesets, and site
    /// permissions other than "granted once". storage.session, session rules, toolbar values,
    /// activeTab grants, the matched-rule log and open ports do not.
    /// - Parameter reopeningTabs: reopen the tabs' URLs in new tabs (Safari's "open windows from
    ///   last session"); by default the browser starts with none.
    /// - Throws: as ``install(_:)``, and as ``openTab(url:active:isPrivate:)`` when reopening.
    public func restart(reopeningTabs: Bool = false) throws {
        trace.record(.navigation, at: "browser", "restart")
        let reopen = reopeningTabs ? tabs.filter { !$0.isPrivate }.map { ($0.url, $0.isActive) } : []
        for tab in tabs {
            for frame in tab.allFrames.reversed() { closeFrame(frame) }
            tab.page = nil
            forgetHistory(of: tab)
        }
        tabs = []
        // localStorage stays; sessionStorage and private tabs' storage go with the session.
        _ = try? webStorageLayer.invoke("restart")
        _ = try? session.realm.engine["web"]["cookies"].invoke("restart")
        for id in popups.keys.sorted() { closePopup(id) }
        for host in extensions {
            unload(host)
            host.action.global = ActionState.Values()
            host.action.tabs = [:]
            // Chrome keeps alarms across a restart (its StateStore); Safari keeps them in
            // memory only (WebExtensionContext's alarm map). Their timers are the old session's.
            for name in host.alarms.keys.sorted() {
                guard let task = host.alarms[name]?.task else { continue }
                loop.cancel(task)
            }
            if options.profile == .safari { host.alarms = [:] } else { rescheduleAlarms(host) }
            host.registeredScripts.removeAll { !$0.persistAcrossSessions }
        }
        windows = []
        focusedWindowID = nil
        nextWindowID = 1
        contexts = contexts.filter { $0.value.isAlive }
        ports = [:]
        activeTabGrants = []
        for (site, permission) in sitePermissions where permission == .once { sitePermissions[site] = nil }
        for host in extensions { try startBackground(host, event: ("runtime.onStartup", [])) }
        for (url, active) in reopen { try openTab(url: url, active: active) }
    }

    /// What of `host` lives only as long as it is loaded, gone (a restart, a reload): its
    /// background and what it waits for, storage.session, session rules and the match log.
    private func unload(_ host: ExtensionHost) {
        if let page = host.backgroundPage {
            if let context = host.backgroundContext { contexts[context.id] = nil }
            host.backgroundContext = nil
            host.backgroundPage = nil
            page.close()
        }
        host.wakeEvents = []
        if let pending = host.idleUnloadTask { loop.cancel(pending) }
        host.idleUnloadTask = nil
        host.lastBackgroundPortActivity = nil
        host.sessionStorage.replaceAll("{}")
        host.dnr.sessionRules = []
        host.dnr.matches = []
        host.dnr.feedbackCalls = []
        host.dnr.invalidate()
    }

    /// `runtime.reload()`: the extension is unloaded and loaded again, as both browsers do
    /// (WebKit's WebExtensionContext::reload is unload then load): its popup and its own tabs
    /// close, its background starts afresh, and what lives only as long as it is loaded goes —
    /// storage.session, session rules, the matched-rule log, toolbar values set by the API and the
    /// action count, its ports. storage.local, dynamic rules, alarms and registered scripts stay.
    /// Chrome then fires `runtime.onInstalled` with reason `update` (its documented behaviour for
    /// reload); WebKit fires onInstalled only when the version differs from the last one it saw,
    /// so a reload of the same version fires nothing. Content scripts already in pages stay.
    public func reloadExtension(_ host: ExtensionHost) throws {
        trace.record(.navigation, at: "browser", "reload \(host.bundle.manifest.name)")
        closePopup(host.id)
        for tab in tabs where extensionHost(owning: tab.url) === host { close(tab) }
        unload(host)
        let before = Dictionary(tabs.map { ($0.id, host.action.effective(tab: $0.id)) }, uniquingKeysWith: { $1 })
        host.action.global = ActionState.Values()
        host.action.tabs = [:]
        host.action.actionCounts = [:]
        host.action.showsActionCount = false
        for tab in tabs { if let previous = before[tab.id] { traceToolbarChange(host, tab: tab.id, before: previous, reason: "extension reloaded") } }
        ports = ports.filter { $0.value.opener?.host !== host && !$0.value.receivers.contains { $0.host === host } }
        contexts = contexts.filter { $0.value.isAlive }
        let details = JSONText.object([("previousVersion", JSONText.string(host.bundle.manifest.version)), ("reason", JSONText.string("update"))])
        try startBackground(host, event: options.profile == .chromium ? ("runtime.onInstalled", [details]) : nil)
    }
}
