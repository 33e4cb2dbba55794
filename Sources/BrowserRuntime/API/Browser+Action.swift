import WebRuntime

extension Browser {
    /// `action.*`: global values, or per-tab ones with `tabId`; every change of what a tab's
    /// toolbar shows is a `toolbar` trace line.
    func handleAction(_ call: APICall) -> APIResult {
        let host = call.context.host
        let details = JSONText.fields(call.argument(0))
        var tabID: Int?
        if let raw = details["tabId"], JSONText.kind(raw) != .null {
            guard let id = Int(raw), tab(id) != nil else { return .error("No tab with id: \(raw).") }
            tabID = id
        }
        func update(_ change: (inout ActionState.Values) -> Void) -> APIResult {
            let affected = tabID.map { [$0] } ?? tabs.map(\.id)
            let before = Dictionary(affected.map { ($0, host.action.effective(tab: $0)) }, uniquingKeysWith: { $1 })
            if let tabID { change(&host.action.tabs[tabID, default: ActionState.Values()]) } else { change(&host.action.global) }
            for id in affected {
                if let previous = before[id] { traceToolbarChange(host, tab: id, before: previous, reason: "\(call.name) from \(call.context.location)") }
            }
            return .undefined
        }
        func getter(_ read: (ActionState.Values) -> String?) -> APIResult {
            let values = tabID.map { host.action.effective(tab: $0) } ?? ActionState.Values(
                icon: host.action.global.icon ?? host.action.defaults.icon,
                badgeText: host.action.global.badgeText ?? host.action.defaults.badgeText,
                badgeColor: host.action.global.badgeColor ?? host.action.defaults.badgeColor,
                title: host.action.global.title ?? host.action.defaults.title)
            return .json(JSONText.string(read(values) ?? ""))
        }
        switch call.method {
        case "setIcon":
            let icon: String
            if let path = details["path"] {
                switch JSONText.kind(path) {
                case .string: icon = JSONText.decodeString(path)
                case .object:
                    // A size -> path map: the smallest size names the icon in traces.
                    let entries = JSONText.entries(path).sorted { (Int($0.key) ?? 0) < (Int($1.key) ?? 0) }
                    guard let first = entries.first else { return .error("Either path or imageData must be specified.") }
                    icon = JSONText.decodeString(first.value)
                default: return .error("Either path or imageData must be specified.")
                }
            } else if details["imageData"] != nil {
                icon = "imageData"
            } else {
                // Chromium's extension_action_api.cc message for a details object with neither.
                return .error("Either path or imageData must be specified.")
            }
            return update { $0.icon = icon }
        case "setBadgeText":
            let text = details["text"].flatMap { JSONText.kind($0) == .string ? JSONText.decodeString($0) : nil }
            return update { $0.badgeText = text }
        case "setBadgeBackgroundColor":
            guard let color = details["color"] else { return .error("Invalid color") }
            return update { $0.badgeColor = JSONText.kind(color) == .string ? JSONText.decodeString(color) : color }
        case "setTitle":
            let title = details["title"].flatMap { JSONText.kind($0) == .string ? JSONText.decodeString($0) : nil }
            return update { $0.title = title }
        case "getBadgeText": return getter(\.badgeText)
        case "getBadgeBackgroundColor": return getter(\.badgeColor)
        case "getTitle": return getter(\.title)
        default: return .error("action.\(call.method) is not available")
        }
    }
}
