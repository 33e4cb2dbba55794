import JSKit
import WebRuntime

extension Browser {
    /// Chromium's error when nobody listens (extensions/renderer/api/messaging/messaging_util.cc,
    /// kReceivingEndDoesntExistError); Safari rejects with the same text.
    static let noReceiverError = "Could not establish connection. Receiving end does not exist."

    func handleRuntime(_ call: APICall) -> APIResult {
        let host = call.context.host
        switch call.method {
        case "sendMessage":
            // sendMessage(message) or sendMessage(extensionId, message[, options]).
            var message = call.wireArgument(0) ?? "null"
            if call.arguments.count >= 2, let first = call.argument(0), JSONText.kind(first) == .string,
               JSONText.decodeString(first) == host.id {
                message = call.wireArgument(1) ?? "null"
            }
            // A suspended background that listened for messages starts again to receive this one.
            wakeIfNeeded(host, for: "runtime.onMessage")
            let receivers = liveContexts(of: host).filter { $0.kind.isPrivileged && $0 !== call.context }
            return deliver(message, from: call.context, to: receivers, event: "runtime.onMessage")
        case "sendNativeMessage":
            guard let application = call.argument(0).map(JSONText.decodeString) else { return .error("Invalid application name") }
            guard let handler = host.nativeMessageHandler else {
                // Chromium: "Specified native messaging host not found." (native_message_process_host.cc)
                return .error("Specified native messaging host not found.")
            }
            trace.record(.api, at: call.context.location, "native host \(application) receives \(Self.abbreviate(call.argument(1) ?? "null"))")
            switch handler(application, call.argument(1) ?? "null") {
            case let .success(json): return .json(json)
            case let .failure(error): return .error(error.message)
            }
        case "getPlatformInfo":
            return .json(#"{"arch":"arm","nacl_arch":"arm","os":"mac"}"#)
        case "getBackgroundPage":
            // Safari (WebExtensionContext::runtimeGetBackgroundPage) loads an unloaded background
            // page first and answers its window, or null for a service worker. Chrome's Manifest
            // V3 backgrounds are service workers: "You do not have a background page."
            // (Chromium's runtime API, kNoBackgroundPageError).
            if options.profile == .chromium { return .error("You do not have a background page.") }
            guard case .scripts = host.bundle.manifest.background else { return .object(trace: "null", value: call.context.world.context.null) }
            if host.isBackgroundSuspended {
                do { try wakeBackground(of: host, reason: "runtime.getBackgroundPage") } catch { return .error("\(error)") }
            }
            guard let window = backgroundPage(of: host) else { return .object(trace: "null", value: call.context.world.context.null) }
            return .object(trace: "the background page's window", value: window)
        case "openOptionsPage":
            do { try openOptionsPage(of: host) } catch { return .error("\(error)") }
            return .undefined
        case "reload":
            // After the call returns: the calling context is among those the reload ends.
            loop.schedule(label: "reload of \(host.bundle.manifest.name)") { [weak self, weak host] in
                guard let self, let host else { return }
                do { try self.reloadExtension(host) } catch {
                    self.trace.record(.error, at: "browser", "reload of \(host.bundle.manifest.name) failed: \(error)")
                }
            }
            return .undefined
        default:
            return handleMoreRuntime(call) ?? .error("runtime.\(call.method) is not available")
        }
    }

    /// A URL that does not parse: Chrome's "Invalid url: …" (tabs_constants.cc kInvalidUrlError),
    /// Safari's "The 'url' value is invalid, because '…' is not a valid URL."
    func invalidURL(_ api: String, _ text: String) -> APIResult {
        options.profile == .chromium ? .error("Invalid url: \"\(text)\".")
            : .error("Invalid call to \(api). The 'url' value is invalid, because '\(text)' is not a valid URL.")
    }

    /// Delivers a message to the first receiver that answers (Chromium's messaging: the
    /// first `sendResponse` or returned promise wins; with no listener anywhere the call fails).
    /// The receivers get it in a task of their own, as across Safari's processes: never inside
    /// the sender's script, which runs on to its end first (ports deliver the same way).
    func deliver(_ message: String, from sender: ExtensionContext, to receivers: [ExtensionContext], event: String) -> APIResult {
        guard receivers.contains(where: { $0.hasListeners(event) }) else { return .error(Self.noReceiverError) }
        let senderJSON = senderInfo(sender)
        return .later { [unowned self] finish in
            self.loop.schedule(label: "\(event) delivery") {
                self.dispatchMessage(message, senderJSON: senderJSON, to: receivers.filter { $0.isAlive && $0.hasListeners(event) }, event: event, finish: finish)
            }
        }
    }

    private func dispatchMessage(_ message: String, senderJSON: String, to listening: [ExtensionContext], event: String, finish: @escaping (APIResult) -> Void) {
        guard !listening.isEmpty else { return finish(.error(Self.noReceiverError)) }
        let delivery = MessageDelivery(receivers: listening.count, finish: finish)
        // A listener that returned true and never answered leaves its token; drop those of
        // contexts that are gone.
        if pendingAnswers.count > 256 { pendingAnswers = pendingAnswers.filter { $0.value.receiver.isAlive } }
        // Message and sender cross as one JSON text: each value made from here, outside any
        // script, costs a trip through the engine's lock.
        let payload = "[" + message + "," + senderJSON + "]"
        for receiver in listening {
            let realm = receiver.world.context
            guard let parsed = try? realm.parseJSON(payload) else { continue }
            let token = nextMessageToken
            nextMessageToken += 1
            pendingAnswers[token] = (delivery, receiver)
            delivery.tokens.append(token)
            _ = try? receiver.api.invoke("dispatchMessage", [realm.string(event), parsed, realm.number(Double(token))])
        }
    }

    /// `host.answerMessage(token, kind, value)` from a receiver: "answer" with a value, "error"
    /// with a message, or "none" when that receiver will not answer. The first answer settles
    /// the sender's promise; the others, and anything after, are dropped.
    func answerMessage(_ call: HostCall) {
        guard let token = call.argument(0).numberValue.map(Int.init), let (delivery, _) = pendingAnswers[token] else { return }
        pendingAnswers[token] = nil
        guard !delivery.settled else { return }
        switch call.argument(1).stringValue ?? "none" {
        case "answer":
            delivery.settled = true
            let value = call.argument(2)
            if value.isUndefined { delivery.finish(.undefined) } else {
                // Crosses as JSON.stringify writes it; traced with its keys sorted.
                let wire = (try? value.toJSON()) ?? nil
                delivery.finish(wire.map { .message(trace: JSONText.canonical($0), value: $0) } ?? .undefined)
            }
        case "error":
            delivery.settled = true
            delivery.finish(.error(call.argument(2).stringValue ?? "Error"))
        default:
            delivery.silent += 1
            if delivery.silent == delivery.receivers { delivery.settled = true; delivery.finish(.undefined) }
        }
        if delivery.settled { for token in delivery.tokens { pendingAnswers[token] = nil } }
    }

    /// `runtime.MessageSender` for `context`.
    /// Web pages an extension's `externally_connectable.matches` names get
    /// `runtime.sendMessage(extensionId, message)` (Safari's `browser`, Chrome's `chrome`): the
    /// message goes to that extension's `runtime.onMessageExternal` listeners (its background,
    /// woken if need be, and its pages) with the page as sender (url, origin, tab, frameId; no
    /// id), and the first answer settles the page's promise. An extension that is not installed
    /// or does not name the page, or has no listener, fails with Chromium's "Could not establish
    /// connection. Receiving end does not exist."
    func exposeExternalMessaging(to page: Page, frame: Frame) throws {
        let url = frame.url
        guard extensions.contains(where: { host in host.bundle.manifest.externallyConnectable.contains { $0.matches(url) } }) else { return }
        let realm = page.pageWorld.context
        let tabID = frame.tab.id, frameID = frame.id
        let sendMessage = realm.function("sendMessage", length: 2) { [weak self, weak realm] call in
            guard let self, let realm else { return call.context.undefined }
            let deferred = try JSDeferred(in: realm)
            let extensionID = call.argument(0).stringValue
            let message = (try? call.argument(1).toJSON()) ?? "null"
            let location = self.frameLocation(frame)
            self.trace.record(.api, at: location, "page runtime.sendMessage(\(JSONText.string(extensionID ?? "undefined")), \(JSONText.canonical(message)))")
            let settle: (APIResult) -> Void = { [weak realm] result in
                guard let realm else { return }
                switch result {
                case let .json(text), let .message(_, text):
                    deferred.resolve((try? realm.parseJSON(text)) ?? realm.undefined)
                case let .error(text):
                    deferred.reject(message: text)
                default:
                    deferred.resolve(realm.undefined)
                }
            }
            guard let id = extensionID, let host = self.extensionHost(id),
                host.bundle.manifest.externallyConnectable.contains(where: { $0.matches(url) }), let tab = self.tab(tabID)
            else {
                settle(.error(Self.noReceiverError))
                return deferred.promise
            }
            self.wakeIfNeeded(host, for: "runtime.onMessageExternal")
            var sender: [(String, String)] = [("frameId", "\(frameID)"), ("tab", self.tabJSON(tab, for: host)), ("url", JSONText.string(page.url))]
            if let origin = URLOrigin.of(page.url) { sender.append(("origin", JSONText.string(origin))) }
            let senderJSON = JSONText.object(sender.sorted { $0.0 < $1.0 })
            self.loop.schedule(label: "runtime.onMessageExternal delivery") {
                let listening = self.liveContexts(of: host).filter { $0.kind.isPrivileged && $0.hasListeners("runtime.onMessageExternal") }
                self.dispatchMessage(message, senderJSON: senderJSON, to: listening, event: "runtime.onMessageExternal", finish: settle)
            }
            return deferred.promise
        }
        let runtime = realm.object()
        try runtime.set("sendMessage", sendMessage)
        try runtime.set("connect", externalConnect(in: realm, page: page, frame: frame))
        let namespace = realm.object()
        try namespace.set("runtime", runtime)
        try page.pageWorld.global.set(options.profile == .safari ? "browser" : "chrome", namespace)
    }

    func senderInfo(_ context: ExtensionContext) -> String {
        var fields: [(String, String)] = [("id", JSONText.string(context.host.id))]
        if let page = context.world.page {
            fields.append(("url", JSONText.string(page.url)))
            // about:blank and srcdoc documents have their creator's origin.
            if let origin = URLOrigin.of(pageFrames[page.id]?.effectiveURL ?? page.url) { fields.append(("origin", JSONText.string(origin))) }
        }
        // An extension page in a tab is a sender with a tab too (MessageSender.tab: "only
        // present when the connection was opened from a tab (including content scripts)").
        switch context.kind {
        case let .content(tabID, frameID), let .tab(tabID, frameID):
            guard let tab = tab(tabID) else { break }
            fields.append(("tab", tabJSON(tab, for: context.host)))
            fields.append(("frameId", "\(frameID)"))
        case .background, .popup: break
        }
        return JSONText.object(fields)
    }
}

extension ExtensionContext {
    /// True when `event` (e.g. `runtime.onMessage`) has at least one listener here.
    func hasListeners(_ event: String) -> Bool {
        var node = api["browser"]
        for part in event.split(separator: ".") { node = node[String(part)] }
        return (try? node.invoke("hasListeners").toBool) == true
    }
}

/// The origin of a URL (`scheme://host[:port]`).
enum URLOrigin {
    static func of(_ url: String) -> String? {
        // A plain byte scan: Foundation's `range(of:)` goes through NSString on Linux.
        let bytes = url.utf8
        var index = bytes.startIndex
        var schemeEnd: String.Index?
        while index != bytes.endIndex {
            if bytes[index] == UInt8(ascii: ":") {
                let slash1 = bytes.index(after: index)
                if slash1 != bytes.endIndex, bytes[slash1] == UInt8(ascii: "/") {
                    let slash2 = bytes.index(after: slash1)
                    if slash2 != bytes.endIndex, bytes[slash2] == UInt8(ascii: "/") { schemeEnd = bytes.index(after: slash2); break }
                }
            }
            index = bytes.index(after: index)
        }
        guard let schemeEnd else { return nil }
        let hostEnd = bytes[schemeEnd...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
        return String(url[..<hostEnd])
    }
}

/// One message on its way to its receivers: settled by the first answer, or by every receiver
/// declining.
final class MessageDelivery {
    let receivers: Int
    let finish: (APIResult) -> Void
    var settled = false
    var silent = 0
    /// The tokens its receivers hold (Browser.pendingAnswers), dropped once it is settled.
    var tokens: [Int] = []

    init(receivers: Int, finish: @escaping (APIResult) -> Void) {
        self.receivers = receivers
        self.finish = finish
    }
}
