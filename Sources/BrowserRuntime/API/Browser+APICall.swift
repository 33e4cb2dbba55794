import JSKit
import WebRuntime

extension Browser {
    /// The host function behind every `browser.*` method: (contextId, namespace, method, args).
    /// Answers a promise made in the caller's realm, settled in a later task (as the browser's
    /// IPC would), so no answer ever arrives synchronously.
    func handleAPICall(_ hostCall: HostCall) throws -> JSValue? {
        let contextID = Int(try hostCall.argument(0).toNumber())
        guard let context = contexts[contextID] else { throw Self.contextInvalidated }
        let namespace = try hostCall.argument(1).toString()
        let method = try hostCall.argument(2).toString()
        let argumentArray = hostCall.argument(3)
        let count = Int(try argumentArray["length"].toNumber())
        var arguments: [String?] = []
        // Messages keep their keys' order for the receiver (a structured clone does); only their
        // trace text is canonical.
        let isMessage = method == "sendMessage" && (namespace == "runtime" || namespace == "tabs")
        var wire: [String?] = []
        for index in 0..<count {
            let value = argumentArray[index]
            // Storage values keep their own key order (as browsers store them: a structured clone
            // or JSON serialization of the value as given); only other calls are canonicalized.
            // Storage keys themselves come back sorted (StorageArea).
            if value.isUndefined {
                arguments.append(nil)
                if isMessage { wire.append(nil) }
            } else if isMessage {
                // The message crosses as JSON.stringify writes it; its trace text is that text
                // with the keys sorted, as canonical.js would write it.
                let json = try value.toJSON()
                wire.append(json)
                arguments.append(json.map(JSONText.canonical))
            } else if namespace.hasPrefix("storage") {
                arguments.append(try value.toJSON())
            } else {
                arguments.append(try context.canonical.call([value]).stringValue)
            }
        }
        let call = APICall(namespace: namespace, method: method, arguments: arguments, wireArguments: isMessage ? wire : arguments, context: context)
        let deferred = try JSDeferred(in: context.world.context)
        // One argument (the usual case) is used as it is: no copy of what may be a large value.
        let argumentText = arguments.count == 1 ? (arguments[0] ?? "undefined") : arguments.map { $0 ?? "undefined" }.joined(separator: ", ")
        let channel = Self.channel(for: namespace)
        trace.record(channel, at: context.location, "\(call.name)(\(Self.abbreviate(argumentText)))")

        let started = loop.now
        let fault = context.host.faults.match(method: call.name, arguments: argumentText, now: started)
        // The closure keeps the deferred alive until the answer comes (messaging answers later).
        let finish: (APIResult) -> Void = { [weak self] result in
            guard let self else { return }
            let delay = fault?.delay ?? .zero
            self.loop.schedule(after: delay, label: "\(call.name) reply") { [weak self] in
                self?.settle(deferred, call: call, result: result, started: started, channel: channel)
            }
        }
        if let error = fault?.error {
            finish(.error(error))
        } else {
            switch handle(call) {
            case let .later(body): body(finish)
            case let result: finish(result)
            }
        }
        return deferred.promise
    }

    /// What a call from a context that is gone (or from a browser that is gone) throws, as
    /// Safari words it.
    static var contextInvalidated: JSError { JSError(message: "Extension context invalidated.") }

    private func settle(_ deferred: JSDeferred, call: APICall, result: APIResult, started: VirtualTime, channel: TraceChannel) {
        let latency = loop.now - started
        let realm = deferred.promise.context
        switch result {
        case let .json(text):
            trace.record(channel, at: call.context.location, "\(call.name) -> \(Self.abbreviate(text)) (\(latency))")
            if let value = try? realm.parseJSON(text) { deferred.resolve(value) } else { deferred.resolve(realm.undefined) }
        case let .message(text, wire):
            trace.record(channel, at: call.context.location, "\(call.name) -> \(Self.abbreviate(text)) (\(latency))")
            if let value = try? realm.parseJSON(wire) { deferred.resolve(value) } else { deferred.resolve(realm.undefined) }
        case let .object(text, value):
            trace.record(channel, at: call.context.location, "\(call.name) -> \(text) (\(latency))")
            deferred.resolve(value)
        case .undefined, .later:
            trace.record(channel, at: call.context.location, "\(call.name) -> undefined (\(latency))")
            deferred.resolve(realm.undefined)
        case let .error(message):
            trace.record(channel, at: call.context.location, "\(call.name) rejected: \(message) (\(latency))")
            deferred.reject(message: message)
        }
    }

    /// Long JSON in a trace line is cut to its first 240 characters plus its length and an
    /// FNV-1a digest of the whole, so a reviewer still sees that (and where) it changed.
    package static func abbreviate(_ text: String) -> String {
        let limit = 240
        guard text.utf8.count > limit * 2 else { return text }
        var copy = text
        // FNV-1a's multiply over 8-byte words (bytes for the tail): one dependent multiply per
        // word instead of per byte keeps long arguments cheap to fingerprint.
        let hash: UInt64 = copy.withUTF8 { bytes in
            let raw = UnsafeRawBufferPointer(bytes)
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            var offset = 0
            while offset + 8 <= raw.count {
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x100_0000_01b3
                offset += 8
            }
            while offset < raw.count {
                hash = (hash ^ UInt64(raw[offset])) &* 0x100_0000_01b3
                offset += 1
            }
            return hash
        }
        let digest = String(hash, radix: 16)
        return String(text.prefix(limit)) + "… (\(text.utf8.count) bytes, digest \(String(repeating: "0", count: 16 - digest.count) + digest))"
    }

    static func channel(for namespace: String) -> TraceChannel {
        if namespace.hasPrefix("storage") { return .storage }
        if namespace == "declarativeNetRequest" { return .dnr }
        return .api
    }

    /// Routes a call to its namespace's implementation.
    func handle(_ call: APICall) -> APIResult {
        switch call.namespace {
        case "storage.local", "storage.sync", "storage.session":
            guard let area = storageArea(call.namespace, of: call.context.host) else { return .error("\(call.name) is not available") }
            return handleStorage(call, area: area)
        case "runtime": return handleRuntime(call)
        case "tabs": return handleTabs(call)
        case "windows": return handleWindows(call)
        case "alarms": return handleAlarms(call)
        case "permissions": return handlePermissions(call)
        case "commands": return handleCommands(call)
        case "contextMenus", "menus": return handleMenus(call)
        case "extension": return handleExtension(call)
        case "cookies": return handleCookies(call)
        case "i18n": return handleI18n(call)
        case "action": return handleAction(call)
        case "declarativeNetRequest": return handleDNR(call)
        case "webNavigation": return handleWebNavigation(call)
        case "scripting": return handleScripting(call)
        default: return .error("\(call.name) is not available")
        }
    }
}
