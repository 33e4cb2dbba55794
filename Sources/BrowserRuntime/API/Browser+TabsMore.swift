import WebRuntime

/// The rest of `tabs`, `runtime` and `extension` that extensions call: history traversal,
/// duplicate, move, discard, zoom, language, captureVisibleTab's refusal; runtime's uninstall
/// URL, getContexts (Chrome) and its never-fired events; extension's incognito questions and
/// views.
extension Browser {
    /// Handles the tabs methods beyond Browser+Runtime's; nil when `call` is not one of them.
    func handleMoreTabs(_ call: APICall) -> APIResult? {
        let host = call.context.host
        let chromium = options.profile == .chromium
        /// The tab named by the first argument, or the active tab of the caller's window (tabArgument).
        func target() -> Tab? { tabArgument(call).tab }
        let missing = noTab(call.method, call.argument(0))
        switch call.method {
        case "goBack", "goForward":
            guard let tab = target() else { return missing }
            do { call.method == "goBack" ? try goBack(tab) : try goForward(tab) } catch { return .error("\(error)") }
            return .undefined
        case "duplicate":
            // Next to the original and active by default (Chromium's DuplicateTabAt; Safari's
            // duplicate(tabId, {active, index})).
            guard let tab = target() else { return noTab("duplicate", call.argument(0)) }
            let properties = JSONText.fields(call.argument(1))
            let index = properties["index"].flatMap(Double.init).map { Int($0) } ?? windowIndex(of: tab) + 1
            do {
                let copy = try openTab(url: tab.url, active: properties["active"] != "false", isPrivate: tab.isPrivate, in: window(tab.windowID),
                                       openedBy: host, index: index, pinned: tab.isPinned, opener: chromium ? tab : nil)
                return .json(tabJSON(copy, for: host))
            } catch { return .error("\(error)") }
        case "move":
            return move(call)
        case "discard":
            // Chrome's: a discarded tab keeps its id, place and URL, reports `discarded` and
            // status "unloaded", and loads again when shown; here its page stays (nothing is
            // short of memory). Chrome refuses the active tab.
            guard let tab = target() else { return noTab("discard", call.argument(0)) }
            if tab.isActive { return .error("Cannot discard tab with id: \(tab.id).") }
            if !tab.isDiscarded {
                tab.isDiscarded = true
                trace.record(.navigation, at: "tab\(tab.id)", "discard")
                broadcastTabUpdate(tab, change: [("discarded", "true"), ("status", "\"unloaded\"")])
            }
            return .json(tabJSON(tab, for: host))
        case "captureVisibleTab":
            // Nothing is drawn headless: refused plainly rather than with a fake image.
            return .error("tabs.captureVisibleTab is not available: this runtime draws no pixels")
        case "detectLanguage":
            // The document's declared language (<html lang>), as far as a page says it; "und"
            // when it says none.
            guard let tab = target() else { return missing }
            let lang = tab.page.flatMap { $0.document["documentElement"]["lang"].stringValue } ?? ""
            return .json(JSONText.string(lang.isEmpty ? "und" : lang))
        case "getZoom":
            guard let tab = target() else { return missing }
            return .json(Self.number(tab.zoomFactor))
        case "setZoom":
            // setZoom([tabId], zoomFactor): the factor is kept and reported (nothing is drawn).
            // Chrome takes 0 (the default, 1) or 0.25…5 (zoom_constants, kMinimumZoomFactor and
            // kMaximumZoomFactor) and fires onZoomChange; WebKit takes any positive factor.
            let factorText = call.arguments.count >= 2 ? call.argument(1) : call.argument(0)
            let tab = call.arguments.count >= 2 ? target() : activeTab
            guard let tab else { return missing }
            guard let raw = factorText.flatMap({ Double($0) }), raw.isFinite else {
                return .error(chromium ? "Error in invocation of tabs.setZoom(optional integer tabId, number zoomFactor, optional function callback): No matching signature."
                              : "Invalid call to tabs.setZoom(). The 'zoomFactor' value is invalid, because a number is expected.")
            }
            let factor = chromium && raw == 0 ? 1 : raw
            if chromium ? !(0.25...5).contains(factor) : factor <= 0 {
                return .error(chromium ? "Zoom value is out of range." : "Invalid call to tabs.setZoom(). The 'zoomFactor' value is invalid, because it must be greater than 0.")
            }
            if chromium, tab.zoomMode == "disabled" { return .error("Cannot change zoom: zoom is disabled for this tab.") }
            let old = tab.zoomFactor
            tab.zoomFactor = factor
            trace.record(.navigation, at: "tab\(tab.id)", "zoom \(Self.number(factor))")
            if chromium, old != factor {
                let change = JSONText.object([("newZoomFactor", Self.number(factor)), ("oldZoomFactor", Self.number(old)), ("tabId", "\(tab.id)"),
                                              ("zoomSettings", JSONText.object([("mode", JSONText.string(tab.zoomMode)), ("scope", JSONText.string(tab.zoomScope))]))])
                broadcast("tabs.onZoomChange", json: [change])
            }
            return .undefined
        case "getZoomSettings":
            guard let tab = target() else { return missing }
            return .json(JSONText.object([("defaultZoomFactor", "1"), ("mode", JSONText.string(tab.zoomMode)), ("scope", JSONText.string(tab.zoomScope))]))
        case "setZoomSettings":
            let settingsText = call.arguments.count >= 2 ? call.argument(1) : call.argument(0)
            let tab = call.arguments.count >= 2 ? target() : activeTab
            guard let tab else { return missing }
            let settings = JSONText.fields(settingsText)
            let mode = settings["mode"].map(JSONText.decodeString) ?? "automatic"
            let scope = settings["scope"].map(JSONText.decodeString) ?? (mode == "automatic" ? "per-origin" : "per-tab")
            guard ["automatic", "manual", "disabled"].contains(mode) else {
                return .error("Error at parameter 'zoomSettings': Error at property 'mode': Value must be one of automatic, manual, disabled.")
            }
            guard ["per-origin", "per-tab"].contains(scope) else {
                return .error("Error at parameter 'zoomSettings': Error at property 'scope': Value must be one of per-origin, per-tab.")
            }
            // Chrome's zoom API: only automatic mode can be per-origin.
            if scope == "per-origin", mode != "automatic" { return .error("Can only set scope to \"per-origin\" in \"automatic\" mode.") }
            tab.zoomMode = mode
            tab.zoomScope = scope
            return .undefined
        default:
            return nil
        }
    }

    /// Chrome's tabs.move(tabIds, {index, windowId}): within a window the tabs go to
    /// consecutive places from `index` (-1 or past the end: the end; pinned tabs stay first),
    /// with tabs.onMoved counted within the window; to another window each is detached
    /// (tabs.onDetached) and attached there (tabs.onAttached), not active, and a window left
    /// empty closes (Chromium's TabsMoveFunction: only normal windows).
    func move(_ call: APICall) -> APIResult {
        let host = call.context.host
        let ids = idList(call.argument(0))
        let properties = JSONText.fields(call.argument(1))
        let index = properties["index"].flatMap(Double.init).map { Int($0) } ?? -1
        var target: BrowserWindow?
        if let id = properties["windowId"].flatMap({ Int($0) }) {
            guard let found = id == -2 ? currentWindow(of: call) : window(id) else { return noWindow("tabs.move()", "\(id)") }
            target = found
        }
        if let missing = ids.first(where: { tab($0) == nil }) { return .error("No tab with id: \(missing).") }
        var moved: [String] = []
        for (offset, tab) in ids.compactMap({ tab($0) }).enumerated() {
            let destination = target ?? window(tab.windowID)
            guard let destination else { continue }
            if destination.id != tab.windowID {
                guard destination.type == "normal", window(tab.windowID)?.type == "normal" else {
                    return .error("Tabs can only be moved to and from normal windows.")
                }
                detach(tab)
                tab.windowID = destination.id
                let place = place(tab, at: index < 0 ? nil : index + offset)
                trace.record(.navigation, at: "tab\(tab.id)", "move to window\(destination.id) index \(place)")
                broadcast("tabs.onAttached", json: ["\(tab.id)", JSONText.object([("newPosition", "\(place)"), ("newWindowId", "\(destination.id)")])])
                if !tabs(in: destination).contains(where: \.isActive) { activate(tab) }
            } else {
                let from = windowIndex(of: tab)
                if let global = tabs.firstIndex(where: { $0 === tab }) { tabs.remove(at: global) }
                let place = place(tab, at: index < 0 ? nil : index + offset)
                trace.record(.navigation, at: "tab\(tab.id)", "move to index \(place)")
                if place != from {
                    broadcast("tabs.onMoved", json: ["\(tab.id)", JSONText.object([("fromIndex", "\(from)"), ("toIndex", "\(place)"), ("windowId", "\(tab.windowID)")])])
                }
            }
            moved.append(tabJSON(tab, for: host))
        }
        return .json(call.argument(0).map { JSONText.kind($0) == .array } == true ? JSONText.array(moved) : (moved.first ?? "null"))
    }

    /// Takes `tab` out of its window for another: tabs.onDetached with its old place, the old
    /// window's next tab becomes active when it was the active one, and a window left empty
    /// closes (the browser's first window stays, as ``close(_:)`` keeps it). The tab is out of
    /// ``tabs`` afterwards, no longer active or selected.
    func detach(_ tab: Tab) {
        let oldWindow = tab.windowID, oldPosition = windowIndex(of: tab)
        let wasActive = tab.isActive
        if let global = tabs.firstIndex(where: { $0 === tab }) { tabs.remove(at: global) }
        tab.isActive = false
        tab.isHighlighted = false
        broadcast("tabs.onDetached", json: ["\(tab.id)", JSONText.object([("oldPosition", "\(oldPosition)"), ("oldWindowId", "\(oldWindow)")])])
        guard let window = window(oldWindow) else { return }
        let remaining = tabs(in: window)
        if wasActive, !remaining.isEmpty { activate(remaining[min(oldPosition, remaining.count - 1)]) }
        if remaining.isEmpty, window.id != 1 { closeWindow(window) }
    }

    /// runtime methods beyond Browser+Runtime's; nil when `call` is not one of them.
    func handleMoreRuntime(_ call: APICall) -> APIResult? {
        let host = call.context.host
        switch call.method {
        case "setUninstallURL":
            // Kept, never opened (nothing is uninstalled). Chrome takes http(s) or "".
            let url = call.argument(0).map(JSONText.decodeString) ?? ""
            if !url.isEmpty, !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
                return .error(options.profile == .chromium ? "Invalid URL: \"\(url)\"." : "Invalid call to runtime.setUninstallURL(). The 'url' value is invalid, because '\(url)' is not a valid URL.")
            }
            host.uninstallURL = url
            return .undefined
        case "requestUpdateCheck":
            // Chrome asks the web store; an extension loaded from a folder has nothing to check
            // against, and nothing here is ever updated: "no_update" (runtime.json's
            // RequestUpdateCheckStatus).
            return .json(#"{"status":"no_update"}"#)
        case "getContexts":
            // Chrome 116's ExtensionContext records for the extension's pages.
            let filter = JSONText.fields(call.argument(0))
            let types = filter["contextTypes"].map { Set(JSONText.elements($0).map(JSONText.decodeString)) }
            let records: [(String, String)] = liveContexts(of: host).compactMap { context in
                let type: String
                var tabID = -1, frameID = -1, windowID = -1
                switch context.kind {
                case .background: type = "BACKGROUND"
                case .popup: type = "POPUP"
                case let .tab(id, frame):
                    type = "TAB"; tabID = id; frameID = frame; windowID = self.tab(id)?.windowID ?? -1
                case .content: return nil
                }
                if let types, !types.contains(type) { return nil }
                let url = context.world.page?.url ?? ""
                var fields: [(String, String)] = [
                    ("contextId", JSONText.string(Self.documentID(ofContext: context.id))), ("contextType", JSONText.string(type)),
                    ("documentOrigin", JSONText.string(URLOrigin.of(url) ?? "")), ("documentUrl", JSONText.string(url)),
                    ("frameId", "\(frameID)"), ("incognito", "false"), ("tabId", "\(tabID)"), ("windowId", "\(windowID)"),
                ]
                if type != "BACKGROUND", let page = context.world.page { fields.append(("documentId", JSONText.string(Self.documentID(of: page)))) }
                return (type, JSONText.object(fields.sorted { $0.0 < $1.0 }))
            }
            return .json(JSONText.array(records.map(\.1)))
        default:
            return nil
        }
    }

    /// A stable UUID for a context (getContexts' contextId).
    static func documentID(ofContext id: Int) -> String {
        let hex = String(id, radix: 16)
        return "00000000-0000-4000-a000-" + String(repeating: "0", count: max(0, 12 - hex.count)) + hex
    }

    func handleExtension(_ call: APICall) -> APIResult {
        let host = call.context.host
        switch call.method {
        case "isAllowedIncognitoAccess": return .json(allowInPrivate.contains(host.id) ? "true" : "false")
        case "isAllowedFileSchemeAccess": return .json("false")
        default: return .error("extension.\(call.method) is not available")
        }
    }
}
