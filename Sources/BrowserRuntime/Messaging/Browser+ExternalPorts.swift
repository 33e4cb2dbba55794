import JSKit
import WebRuntime

/// `runtime.connect(extensionId, {name})` on a web page an extension's `externally_connectable`
/// names (WebKit's WebExtensionAPIWebPageRuntime: sendMessage and connect; Chrome's the same):
/// the page gets a Port (`name`, `postMessage`, `disconnect`, `onMessage`, `onDisconnect`), and
/// the extension's background and pages hear `runtime.onConnectExternal` with the page as
/// sender (url, origin, tab, frameId; no id). Messages cross as JSON in tasks of their own, as
/// on every port; a page that goes away disconnects its ports. The page's Port is made of
/// host functions in the page's realm, so nothing the page patched runs inside it.
///
/// Ownership: the browser's open channel holds the page end (and through it the Port and its
/// listeners); the Port's functions hold the page end only weakly, so a closed port leaves
/// nothing that keeps the page's heap alive (JSContext.function's rule).
extension Browser {
    /// The page's `runtime.connect` for `page` in `frame`.
    func externalConnect(in realm: JSContext, page: Page, frame: Frame) -> JSValue {
        let url = frame.url, tabID = frame.tab.id, frameID = frame.id
        return realm.function("connect", length: 2) { [weak self, weak page, weak realm] call in
            guard let self, let page, let realm else { return call.context.undefined }
            let extensionID = call.argument(0).stringValue
            let options = call.argument(1)
            let name = options.isObject ? (options["name"].stringValue ?? "") : ""
            let id = self.nextPortID
            self.nextPortID += 1
            let end = try PagePortEnd(realm: realm, page: page, location: self.frameLocation(frame), name: name)
            let channel = PortChannel(id: id, name: name, page: end)
            self.ports[id] = channel
            try end.port.set("postMessage", realm.function("postMessage", length: 1) { [weak self, weak channel] call in
                guard let self, let channel, channel.page?.isOpen == true, self.ports[id] != nil else {
                    throw JSError(name: "Error", message: "Attempting to use a disconnected port object")
                }
                let wire = (try? call.argument(0).toJSON()) ?? "null"
                self.trace.record(.api, at: channel.openerLocation, "page \(channel.label) postMessage(\(Self.abbreviate(JSONText.canonical(wire))))")
                self.loop.schedule(label: "\(channel.label) message") { [weak channel] in
                    for receiver in channel?.receivers ?? [] where receiver.isAlive {
                        let realm = receiver.world.context
                        _ = try? receiver.api.invoke("portEvent", [realm.number(Double(id)), realm.string("message"), realm.string(wire)])
                    }
                }
                return call.context.undefined
            })
            try end.port.set("disconnect", realm.function("disconnect", length: 0) { [weak self, weak channel] call in
                guard let self, let channel, let end = channel.page, end.isOpen else { return call.context.undefined }
                end.isOpen = false
                self.trace.record(.api, at: channel.openerLocation, "page \(channel.label) disconnect")
                self.disconnectPagePort(channel)
                return call.context.undefined
            })
            self.trace.record(.api, at: channel.openerLocation, "page runtime.connect(\(JSONText.string(extensionID ?? "undefined"))) \(channel.label)")
            self.loop.schedule(label: "runtime.onConnectExternal \(channel.label)") { [weak self, weak page] in
                guard let self, self.ports[id] != nil else { return }
                guard let page, let extensionID, let host = self.extensionHost(extensionID),
                      host.bundle.manifest.externallyConnectable.contains(where: { $0.matches(url) }), let tab = self.tab(tabID)
                else { return self.endOpener(channel, error: Self.noReceiverError) }
                self.wakeIfNeeded(host, for: "runtime.onConnectExternal")
                var sender: [(String, String)] = [("frameId", "\(frameID)"), ("tab", self.tabJSON(tab, for: host)), ("url", JSONText.string(page.url))]
                if let origin = URLOrigin.of(page.url) { sender.append(("origin", JSONText.string(origin))) }
                let senderJSON = JSONText.object(sender.sorted { $0.0 < $1.0 })
                for receiver in self.liveContexts(of: host) where receiver.kind.isPrivileged && receiver.hasListeners("runtime.onConnectExternal") {
                    let realm = receiver.world.context
                    guard let sender = try? realm.parseJSON(senderJSON) else { continue }
                    channel.receivers.append(receiver)
                    _ = try? receiver.api.invoke("acceptPort", [realm.number(Double(id)), realm.string(name), sender, realm.string("runtime.onConnectExternal")])
                }
                if channel.receivers.isEmpty { self.endOpener(channel, error: Self.noReceiverError) }
            }
            return end.port
        }
    }

    /// The page's end of `channel` closed (its disconnect, or the page going away): the
    /// extension's ends hear onDisconnect in a later task.
    func disconnectPagePort(_ channel: PortChannel) {
        guard ports[channel.id] != nil else { return }
        channel.page?.isOpen = false
        channel.openerConnected = false
        ports[channel.id] = nil
        loop.schedule(label: "\(channel.label) disconnect") {
            let receivers = channel.receivers
            channel.receivers = []
            for receiver in receivers { receiver.portEvent(channel.id, error: nil) }
        }
    }
}

/// A web page's end of a port: the Port object in the page's realm, its two events, and
/// whether it is still open.
final class PagePortEnd {
    weak var page: Page?
    let location: String
    let port: JSValue
    let onMessage: PageEvent
    let onDisconnect: PageEvent
    weak var realm: JSContext?
    var isOpen = true

    init(realm: JSContext, page: Page, location: String, name: String) throws {
        self.page = page
        self.realm = realm
        self.location = location
        port = realm.object()
        onMessage = PageEvent(realm: realm, page: page, during: "Port.onMessage")
        onDisconnect = PageEvent(realm: realm, page: page, during: "Port.onDisconnect")
        try port.set("name", realm.string(name))
        try port.set("onMessage", onMessage.object)
        try port.set("onDisconnect", onDisconnect.object)
    }

    /// A message (JSON text) from the extension, to the page's onMessage listeners.
    func deliver(_ wire: String) {
        guard isOpen, let realm, let message = try? realm.parseJSON(wire) else { return }
        onMessage.fire([message, port])
    }

    /// The extension's end went away (or nobody accepted): onDisconnect, once.
    func disconnected() {
        guard isOpen else { return }
        isOpen = false
        onDisconnect.fire([port])
    }
}

/// An event object in a web page's realm (a page Port's onMessage and onDisconnect): its
/// listeners are kept here, and an exception in one is reported as the page's while the others
/// still run.
final class PageEvent {
    let object: JSValue
    private var listeners: [JSValue] = []
    private weak var page: Page?
    private let during: String

    init(realm: JSContext, page: Page, during: String) {
        self.page = page
        self.during = during
        object = realm.object()
        try? object.set("addListener", realm.function("addListener", length: 1) { [weak self] call in
            let listener = call.argument(0)
            guard listener.isFunction else { throw JSError(name: "TypeError", message: "\(during).addListener: listener must be a function") }
            if let self, !self.listeners.contains(where: { $0.isStrictlyEqual(to: listener) }) { self.listeners.append(listener) }
            return call.context.undefined
        })
        try? object.set("removeListener", realm.function("removeListener", length: 1) { [weak self] call in
            self?.listeners.removeAll { $0.isStrictlyEqual(to: call.argument(0)) }
            return call.context.undefined
        })
        try? object.set("hasListener", realm.function("hasListener", length: 1) { [weak self] call in
            call.context.boolean(self?.listeners.contains { $0.isStrictlyEqual(to: call.argument(0)) } == true)
        })
        try? object.set("hasListeners", realm.function("hasListeners", length: 0) { [weak self] call in
            call.context.boolean(self?.listeners.isEmpty == false)
        })
    }

    func fire(_ arguments: [JSValue]) {
        for listener in listeners {
            do { _ = try listener.call(arguments) } catch let error as JSError {
                page?.report(JSErrorReport(error: error, during: during), world: "page")
            } catch {}
        }
    }
}
