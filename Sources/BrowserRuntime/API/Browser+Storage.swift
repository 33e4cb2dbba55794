import WebRuntime

extension Browser {
    func handleStorage(_ call: APICall, area: StorageArea) -> APIResult {
        let host = call.context.host
        switch call.method {
        case "get":
            switch area.get(call.argument(0)) {
            case let .success(json): return .json(json)
            case let .failure(error): return .error(error.description)
            }
        case "set":
            guard let items = call.argument(0) else { return .error(StorageError.invalidItems.description) }
            switch area.set(items) {
            case let .success(changes): notifyStorageChange(host, area: area, changes: changes)
            case let .failure(error): return .error(error.description)
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
        default:
            return .error("storage.\(area.name).\(call.method) is not available")
        }
    }

    /// storage.onChanged goes to every live context of the extension (content scripts
    /// included), after the write, in the same task as the writer's reply is queued.
    func notifyStorageChange(_ host: ExtensionHost, area: StorageArea, changes: [StorageArea.Change]) {
        guard !changes.isEmpty else { return }
        let changesJSON = StorageArea.changesJSON(changes)
        trace.record(.storage, at: "browser", "\(area.name) changed \(Browser.abbreviate(changesJSON))")
        loop.schedule(label: "storage.onChanged") { [weak self, weak host] in
            guard let self, let host else { return }
            self.wakeIfNeeded(host, for: "storage.onChanged")
            for context in self.liveContexts(of: host) {
                // storage.session is not exposed to content scripts by default (Chromium's
                // TRUSTED_CONTEXTS access level), so they do not hear its changes either.
                if area.name == "session", !context.kind.isPrivileged { continue }
                context.dispatch("storage.onChanged", json: [changesJSON, JSONText.string(area.name)])
            }
        }
    }
}
