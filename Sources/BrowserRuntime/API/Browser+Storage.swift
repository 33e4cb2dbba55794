import WebRuntime

extension Browser {
    /// Chrome's refusal of storage.session from a content script under TRUSTED_CONTEXTS
    /// (extensions/browser/api/storage/storage_api.cc, IsAccessToStorageAllowed). Safari hides
    /// the area from content scripts instead (browser-api.js).
    static let storageAccessRefused = "Access to storage is not allowed from this context."

    /// The storage area a call names (`storage.local` …), nil for another namespace.
    func storageArea(_ namespace: String, of host: ExtensionHost) -> StorageArea? {
        switch namespace {
        case "storage.local": return host.local
        case "storage.sync": return host.sync
        case "storage.session": return host.sessionStorage
        default: return nil
        }
    }

    func handleStorage(_ call: APICall, area: StorageArea) -> APIResult {
        let host = call.context.host
        let chromium = options.profile == .chromium
        if !call.context.kind.isPrivileged, !area.openToContentScripts { return .error(Self.storageAccessRefused) }
        if chromium, area.name == "sync", ["set", "remove", "clear"].contains(call.method), let limit = syncWriteLimit(host, method: call.method) {
            return .error(limit)
        }
        switch call.method {
        case "get":
            switch area.get(call.argument(0)) {
            case let .success(json): return .json(json)
            case let .failure(error): return .error(error.description)
            }
        case "getKeys":
            return .json(JSONText.array(area.keys.map(JSONText.string)))
        case "set":
            guard let items = call.argument(0) else { return .error(StorageError.invalidItems.description) }
            switch area.set(items) {
            case let .success(changes): notifyStorageChange(host, area: area, changes: changes)
            case let .failure(error): return .error(error.message(area: area.name, profile: options.profile))
            }
            return .undefined
        case "remove":
            switch area.remove(call.argument(0)) {
            case let .success(changes): notifyStorageChange(host, area: area, changes: changes)
            case let .failure(error): return .error(error.description)
            }
            return .undefined
        case "clear":
            notifyStorageChange(host, area: area, changes: area.clear())
            return .undefined
        case "getBytesInUse":
            var keys: [String]?
            if let json = call.argument(0), JSONText.kind(json) != .null {
                keys = JSONText.kind(json) == .string ? [JSONText.decodeString(json)] : JSONText.elements(json).map(JSONText.decodeString)
            }
            return .json("\(area.bytes(for: keys))")
        case "setAccessLevel":
            // Checked in the caller (browser-api.js); only storage.session has it. Chrome refuses
            // it from a content script once the area is open to them.
            if !call.context.kind.isPrivileged { return .error("Context cannot set the storage access level") }
            let level = JSONText.fields(call.argument(0))["accessLevel"].map(JSONText.decodeString)
            area.openToContentScripts = level == "TRUSTED_AND_UNTRUSTED_CONTEXTS"
            trace.record(.storage, at: "browser", "\(area.name) access level \(level ?? "?")")
            return .undefined
        default:
            return .error("storage.\(area.name).\(call.method) is not available")
        }
    }

    /// Chrome's write limits on storage.sync: 120 calls a minute and 1,800 an hour for each of
    /// set, remove and clear, counted in fixed windows from the first call
    /// (MAX_WRITE_OPERATIONS_PER_MINUTE / _PER_HOUR; quota_service.cc, "This request exceeds the
    /// * quota."). Safari exposes the same constants and enforces neither. Nil when allowed.
    func syncWriteLimit(_ host: ExtensionHost, method: String) -> String? {
        let now = loop.now
        var entry = host.syncWrites[method] ?? (now, 0, now, 0)
        if now - entry.minute >= .seconds(60) { entry.minute = now; entry.inMinute = 0 }
        if now - entry.hour >= .seconds(3600) { entry.hour = now; entry.inHour = 0 }
        if entry.inMinute >= 120 { return "This request exceeds the MAX_WRITE_OPERATIONS_PER_MINUTE quota." }
        if entry.inHour >= 1800 { return "This request exceeds the MAX_WRITE_OPERATIONS_PER_HOUR quota." }
        entry.inMinute += 1
        entry.inHour += 1
        host.syncWrites[method] = entry
        return nil
    }

    /// storage.onChanged, and the area's own onChanged, go to every live context of the
    /// extension after the write. Chrome fires the area's event first, with the changes only,
    /// then storage.onChanged with the area's name (storage_frontend.cc); Safari fires
    /// storage.onChanged first and gives both the area's name (WebExtensionAPIStorageCocoa.mm).
    /// Content scripts hear storage.session's changes in Safari always
    /// (WebExtensionContextAPIStorageCocoa.mm sends every change to content-script processes),
    /// in Chrome only once the area is open to them.
    func notifyStorageChange(_ host: ExtensionHost, area: StorageArea, changes: [StorageArea.Change]) {
        guard !changes.isEmpty else { return }
        let changesJSON = StorageArea.changesJSON(changes)
        let chromium = options.profile == .chromium
        trace.record(.storage, at: "browser", "\(area.name) changed \(Browser.abbreviate(changesJSON))")
        loop.schedule(label: "storage.onChanged") { [weak self, weak host] in
            guard let self, let host else { return }
            self.wakeIfNeeded(host, for: "storage.onChanged")
            self.wakeIfNeeded(host, for: "storage.\(area.name).onChanged")
            let name = JSONText.string(area.name)
            let areaEvent = "storage.\(area.name).onChanged"
            for context in self.liveContexts(of: host) {
                if chromium, !context.kind.isPrivileged, !area.openToContentScripts { continue }
                // The area's own event is rarer: its delivery (a task, the changes parsed in the
                // context's realm) is made only for a context that listens.
                let areaListens = context.hasListeners(areaEvent)
                if chromium {
                    if areaListens { context.dispatch(areaEvent, json: [changesJSON]) }
                    context.dispatch("storage.onChanged", json: [changesJSON, name])
                } else {
                    context.dispatch("storage.onChanged", json: [changesJSON, name])
                    if areaListens { context.dispatch(areaEvent, json: [changesJSON, name]) }
                }
            }
        }
    }
}
