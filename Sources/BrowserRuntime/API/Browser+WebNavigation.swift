import WebRuntime

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

    /// `webNavigation.getFrame({tabId, frameId})` and `getAllFrames({tabId})`.
    ///
    /// Safari (WebKit's WebExtensionContextAPIWebNavigationCocoa.mm): both keys must be numbers;
    /// an unknown tab or frame rejects ("Invalid call to webNavigation.getFrame(). Tab not
    /// found." / "Frame not found."); `url` is left out of a frame the extension may not access;
    /// getFrame leaves out `frameId`, getAllFrames lists the tree top-down, each with its id.
    /// Chromium (webNavigation.json / web_navigation_api.cc) resolves with null for an unknown
    /// tab or frame and always gives the URL. `errorOccurred` is true for a frame whose load a
    /// rule blocked. Document ids are not modelled.
    func handleWebNavigation(_ call: APICall) -> APIResult {
        let api = "webNavigation.\(call.method)()"
        let fields = JSONText.fields(call.argument(0))
        let required = call.method == "getFrame" ? ["tabId", "frameId"] : ["tabId"]
        let missing = required.filter { fields[$0] == nil }
        if !missing.isEmpty {
            return .error("Invalid call to \(api). The 'details' value is invalid, because it is missing required keys: \(missing.map { "\"\($0)\"" }.joined(separator: ", ")).")
        }
        for key in required where JSONText.kind(fields[key] ?? "") != .number {
            return .error("Invalid call to \(api). The '\(key)' value is invalid, because a number is expected.")
        }
        let chromium = options.profile == .chromium
        guard let tab = fields["tabId"].flatMap({ Int($0) }).flatMap({ tab($0) }) else {
            return chromium ? .json("null") : .error("Invalid call to \(api). Tab not found.")
        }
        let host = call.context.host
        func details(_ frame: Frame, withID: Bool) -> String {
            var pairs = [("errorOccurred", frame.isBlocked ? "true" : "false"), ("parentFrameId", "\(frame.parentID)")]
            if withID { pairs.append(("frameId", "\(frame.id)")) }
            if chromium || mayAccess(host, url: frame.effectiveURL, tab: tab) { pairs.append(("url", JSONText.string(frame.url))) }
            return JSONText.object(pairs)
        }
        if call.method == "getAllFrames" {
            return .json(JSONText.array(tab.allFrames.map { details($0, withID: true) }))
        }
        guard let frame = fields["frameId"].flatMap({ Int($0) }).flatMap({ tab.frame($0) }) else {
            return chromium ? .json("null") : .error("Invalid call to \(api). Frame not found.")
        }
        return .json(details(frame, withID: false))
    }
}
