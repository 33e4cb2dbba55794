import JSKit
import WebRuntime

extension Browser {
    /// Installs the port host functions browser-api.js calls (portOpen, portPost, portDisconnect),
    /// which hold the browser weakly (see Browser.init).
    static func installPortFunctions(_ define: (String, Int, @escaping (Browser, HostCall) throws -> JSValue?) throws -> Void) throws {
        try define("portOpen", 4) { browser, call in
            let context = try browser.context(call.argument(0))
            let target = Int(try call.argument(1).toNumber())
            let name = try call.argument(2).toString()
            let frameID = Int(try call.argument(3).toNumber())
            if target == -2 { return call.context.number(Double(browser.openNativePort(from: context, application: name))) }
            let id = browser.openPort(from: context, tabID: target >= 0 ? target : nil, frameID: frameID >= 0 ? frameID : nil, name: name)
            return call.context.number(Double(id))
        }
        try define("portPost", 4) { browser, call in
            let context = try browser.context(call.argument(0))
            let json = try call.argument(2).toString()
            // The message as its sender wrote it (keys in their own order) reaches the other end.
            let wire = call.argument(3).isUndefined ? json : ((try call.argument(3).toJSON()) ?? "null")
            browser.postOnPort(Int(try call.argument(1).toNumber()), from: context, json: json, wire: wire)
            return nil
        }
        try define("portDisconnect", 2) { browser, call in
            let context = try browser.context(call.argument(0))
            browser.disconnectPort(Int(try call.argument(1).toNumber()), from: context, error: nil)
            return nil
        }
    }

    private func context(_ value: JSValue) throws -> ExtensionContext {
        guard let context = contexts[Int(try value.toNumber())] else { throw Self.contextInvalidated }
        return context
    }

    /// Opens a channel and, in a later task, offers it to every receiving context with a
    /// `runtime.onConnect` listener: extension pages and the background for `runtime.connect`
    /// (waking a suspended background), the tab's content scripts (one frame with `frameID`)
    /// for `tabs.connect`. With no receiver the opener's port disconnects with
    /// "Could not establish connection. Receiving end does not exist." in runtime.lastError.
    func openPort(from opener: ExtensionContext, tabID: Int?, frameID: Int?, name: String) -> Int {
        let id = nextPortID
        nextPortID += 1
        let channel = PortChannel(id: id, name: name, opener: opener)
        ports[id] = channel
        let method = tabID == nil ? "runtime.connect" : "tabs.connect"
        var target = ""
        if let tabID { target = " to tab\(tabID)" + (frameID.map { "/frame\($0)" } ?? "") }
        trace.record(.api, at: opener.location, "\(method) \(channel.label)\(target)")
        let fault = opener.host.faults.match(method: method, arguments: JSONText.string(name), now: loop.now)
        loop.schedule(after: fault?.delay ?? .zero, label: "\(method) \(channel.label)") { [weak self] in
            guard let self, self.ports[id] != nil else { return }
            if let error = fault?.error {
                self.endOpener(channel, error: error)
                return
            }
            let host = opener.host
            var candidates: [ExtensionContext]
            if let tabID {
                candidates = self.liveContexts(of: host).filter { context in
                    guard case let .content(tab, frame) = context.kind, tab == tabID else { return false }
                    return frameID == nil || frameID == frame
                }
            } else {
                self.wakeIfNeeded(host, for: "runtime.onConnect")
                candidates = self.liveContexts(of: host).filter { $0.kind.isPrivileged && $0 !== opener }
            }
            let senderJSON = self.senderInfo(opener)
            for receiver in candidates where receiver.hasListeners("runtime.onConnect") {
                let realm = receiver.world.context
                guard let sender = try? realm.parseJSON(senderJSON) else { continue }
                channel.receivers.append(receiver)
                _ = try? receiver.api.invoke("acceptPort", [realm.number(Double(id)), realm.string(name), sender])
            }
            if channel.receivers.isEmpty { self.endOpener(channel, error: Self.noReceiverError) }
        }
        return id
    }

    /// Opens a port to the native app (`runtime.connectNative`). Safari hands each message to
    /// the app extension's handler (SafariWebExtensionHandler's beginRequest) and posts its
    /// answer back on the port; here the scenario's native host answers each message as it
    /// answers sendNativeMessage, a null answer posting nothing. With no native host the port
    /// disconnects in a later task with Chromium's "Specified native messaging host not found."
    /// (native_message_process_host.cc); a message the host fails on disconnects it with the
    /// host's error.
    func openNativePort(from opener: ExtensionContext, application: String) -> Int {
        let id = nextPortID
        nextPortID += 1
        let channel = PortChannel(id: id, name: "", opener: opener)
        channel.nativeApplication = application
        ports[id] = channel
        trace.record(.api, at: opener.location, "runtime.connectNative \(JSONText.string(application)) \(channel.label)")
        if opener.host.nativeMessageHandler == nil {
            loop.schedule(label: "runtime.connectNative \(channel.label)") { [weak self] in
                guard let self, self.ports[id] != nil else { return }
                self.endOpener(channel, error: "Specified native messaging host not found.")
            }
        }
        return id
    }

    /// A message on a native port, answered by the native host in a later task.
    private func postToNative(_ channel: PortChannel, application: String, from sender: ExtensionContext, wire: String) {
        loop.schedule(label: "\(channel.label) native message") { [weak self] in
            guard let self, self.ports[channel.id] != nil, let handler = sender.host.nativeMessageHandler else { return }
            self.trace.record(.api, at: sender.location, "native host \(application) receives \(Self.abbreviate(JSONText.canonical(wire)))")
            switch handler(application, wire) {
            case let .success(answer):
                guard answer != "null", sender.isAlive else { return }
                let realm = sender.world.context
                _ = try? sender.api.invoke("portEvent", [realm.number(Double(channel.id)), realm.string("message"), realm.string(answer)])
            case let .failure(error):
                self.endOpener(channel, error: error.message)
            }
        }
    }

    /// Delivers a message in a later task: from the opener to every receiver, from a receiver
    /// to the opener.
    func postOnPort(_ id: Int, from sender: ExtensionContext, json: String, wire: String) {
        guard let channel = ports[id] else { return }
        trace.record(.api, at: sender.location, "\(channel.label) postMessage(\(json))")
        if let application = channel.nativeApplication {
            postToNative(channel, application: application, from: sender, wire: wire)
            return
        }
        if sender === sender.host.backgroundContext { sender.host.lastBackgroundPortActivity = loop.now }
        // Tasks run in order: a message posted right after connect arrives once the receivers
        // have accepted, and one posted before a disconnect still arrives, first.
        loop.schedule(label: "\(channel.label) message") {
            if sender !== channel.opener, channel.openerConnected, let page = channel.page {
                page.deliver(wire)
                return
            }
            let targets = sender === channel.opener ? channel.receivers : (channel.openerConnected ? [channel.opener].compactMap { $0 } : [])
            for target in targets where target.isAlive {
                let realm = target.world.context
                _ = try? target.api.invoke("portEvent", [realm.number(Double(id)), realm.string("message"), realm.string(wire)])
            }
        }
    }

    /// Ends `context`'s side of channel `id`: the other side hears onDisconnect in a later task
    /// (the opener only once no receiver is left, as in Chromium).
    func disconnectPort(_ id: Int, from context: ExtensionContext, error: String?) {
        guard let channel = ports[id] else { return }
        trace.record(.api, at: context.location, "\(channel.label) disconnect")
        if context === channel.opener {
            channel.openerConnected = false
            ports[id] = nil
            loop.schedule(label: "\(channel.label) disconnect") {
                let receivers = channel.receivers
                channel.receivers = []
                for receiver in receivers { receiver.portEvent(id, error: error) }
            }
        } else {
            channel.receivers.removeAll { $0 === context }
            guard channel.receivers.isEmpty else { return }
            ports[id] = nil
            let opener = channel.opener, page = channel.page
            if channel.openerConnected {
                loop.schedule(label: "\(channel.label) disconnect") {
                    opener?.portEvent(id, error: error)
                    page?.disconnected()
                }
            }
        }
    }

    func endOpener(_ channel: PortChannel, error: String) {
        ports[channel.id] = nil
        trace.record(.api, at: channel.openerLocation, "\(channel.label) disconnected: \(error)")
        channel.opener?.portEvent(channel.id, error: error)
        channel.page?.disconnected()
    }

    /// Every port end in `page`'s contexts disconnects, as when its document goes away.
    func disconnectPorts(of page: Page) {
        for channel in ports.values.sorted(by: { $0.id < $1.id }) {
            if let end = channel.page, end.page === page || end.page == nil { disconnectPagePort(channel) }
            for context in [channel.opener].compactMap({ $0 }) + channel.receivers where context.world.page === page {
                disconnectPort(channel.id, from: context, error: nil)
            }
        }
    }
}

extension ExtensionContext {
    /// Fires onDisconnect on this context's end of port `id` (with runtime.lastError set to
    /// `error`, when given).
    func portEvent(_ id: Int, error: String?) {
        guard isAlive else { return }
        let realm = world.context
        _ = try? api.invoke("portEvent", [realm.number(Double(id)), realm.string("disconnect"), error.map { realm.string($0) } ?? realm.null])
    }
}
