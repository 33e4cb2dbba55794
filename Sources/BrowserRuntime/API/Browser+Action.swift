import WebRuntime

extension Browser {
    /// `action.*`: global values, or per-tab ones with `tabId`; every change of what a tab's
    /// toolbar shows is a `toolbar` trace line.
    func handleAction(_ call: APICall) -> APIResult {
        let host = call.context.host
        let details = JSONText.fields(call.argument(0))
        var tabID: Int?
        // enable/disable/isEnabled take the tab id itself; the others a details object.
        let rawTab = ["enable", "disable", "isEnabled"].contains(call.method) ? call.argument(0) : details["tabId"]
        if let raw = rawTab, JSONText.kind(raw) != .null {
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
        let current = tabID.map { host.action.effective(tab: $0) } ?? host.action.globalEffective
        func getter(_ read: (ActionState.Values) -> String?) -> APIResult {
            .json(JSONText.string(read(current) ?? ""))
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
        case "setPopup":
            // A path in the extension; "" leaves the button without a popup (it fires onClicked).
            guard let popup = details["popup"], JSONText.kind(popup) == .string else { return .error("Invalid call to action.setPopup(). The 'popup' value is invalid, because a string is expected.") }
            var path = JSONText.decodeString(popup)
            if path.hasPrefix(host.bundle.url("")) { path = String(path.dropFirst(host.bundle.url("").count)) }
            if path.hasPrefix("/") { path.removeFirst() }
            return update { $0.popup = path }
        case "getPopup":
            // Both answer the popup's URL ("" when there is none).
            return .json(JSONText.string(current.popup.map { $0.isEmpty ? "" : host.bundle.url($0) } ?? ""))
        case "setBadgeTextColor":
            guard let color = details["color"] else { return .error("Invalid color") }
            return update { $0.badgeTextColor = JSONText.kind(color) == .string ? JSONText.decodeString(color) : color }
        case "getBadgeTextColor": return getter(\.badgeTextColor)
        case "enable": return update { $0.enabled = true }
        case "disable": return update { $0.enabled = false }
        case "isEnabled": return .json(current.enabled == false ? "false" : "true")
        case "getUserSettings":
            // Whether the user pinned the button to the toolbar: this runtime's toolbar shows it.
            return .json(#"{"isOnToolbar":true}"#)
        case "openPopup":
            // Chrome (extension_action_api.cc) and Safari (WebExtensionContextAPIActionCocoa.mm,
            // "another popup is already open") open it on the active tab of the window in front.
            guard let tab = activeTab else { return .error(options.profile == .chromium ? "Could not find an active browser window." : "Invalid call to action.openPopup(). Window not found.") }
            if options.profile == .safari, popups[host.id] != nil { return .error("Invalid call to action.openPopup(). Another popup is already open.") }
            guard let popup = host.action.effective(tab: tab.id).popup, !popup.isEmpty else {
                return options.profile == .chromium ? .error("Extension does not have a popup on the active tab.") : .undefined
            }
            do { _ = try openPopup(host, in: tab, file: popup) } catch { return .error("\(error)") }
            return .undefined
        case "getBadgeText": return getter(\.badgeText)
        case "getBadgeBackgroundColor": return getter(\.badgeColor)
        case "getTitle": return getter(\.title)
        default: return .error("action.\(call.method) is not available")
        }
    }
}
