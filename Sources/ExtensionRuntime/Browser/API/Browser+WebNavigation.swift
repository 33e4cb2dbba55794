extension Browser {
    /// Fires `webNavigation.<event>` for `frame` in the privileged contexts of every extension
    /// with the "webNavigation" permission, as a task (the browser's IPC), waking a suspended
    /// background that listened to it. Details are what WebKit sends (tabId, frameId,
    /// parentFrameId, url, timeStamp on the virtual clock). Safari fires only for URLs the
    /// extension may access (WebExtensionContext::didStartProvisionalLoadForFrame checks
    /// hasPermission(url, tab)); Chromium needs no host permission.
    ///
    /// Trace line: `       0ms background api webNavigation.onCommitted tab1 frame 0 https://news.example/`
    func fireWebNavigation(_ event: String, frame: Frame, extra: [(String, String)] = []) {
        let time = options.session.epoch + loop.now.milliseconds
        let details = JSONText.object([
            ("frameId", "\(frame.id)"), ("parentFrameId", "\(frame.parentID)"), ("tabId", "\(frame.tab.id)"),
            ("timeStamp", Self.number(time)), ("url", JSONText.string(frame.url)),
        ] + extra)
        let name = "webNavigation." + event
        let tab = frame.tab
        let listening = extensions.filter { host in
            guard host.bundle.manifest.has("webNavigation") else { return false }
            return options.profile == .chromium || mayAccess(host, url: frame.effectiveURL, tab: tab)
        }
        guard !listening.isEmpty else { return }
        loop.schedule(label: name) { [weak self] in
            guard let self else { return }
            for host in listening {
                self.wakeIfNeeded(host, for: name)
                for context in self.liveContexts(of: host) where context.kind.isPrivileged && context.hasListeners(name) {
                    self.trace.record(.api, at: context.location, "\(name) tab\(tab.id) frame \(frame.id) \(frame.url)")
                    context.dispatch(name, json: [details])
                }
            }
        }
    }
}
