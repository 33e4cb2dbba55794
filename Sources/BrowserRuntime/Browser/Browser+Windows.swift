import JSKit
import WebRuntime

extension Browser {
    /// The window with `id`.
    public func window(_ id: Int) -> BrowserWindow? { windows.first { $0.id == id } }

    /// The window in front: the one focused last that is still open.
    public var focusedWindow: BrowserWindow? { focusedWindowID.flatMap(window) ?? windows.last }

    /// The tabs of `window`, in their order in it.
    public func tabs(in window: BrowserWindow) -> [Tab] { tabs.filter { $0.windowID == window.id } }

    /// The window a new tab opens in when none is named: the focused normal window, made when
    /// there is none yet (the browser's first window opens without windows.onCreated, as a
    /// browser's own window exists before any extension loads).
    func defaultWindow() -> BrowserWindow {
        if let window = focusedWindow, window.type == "normal" { return window }
        if let window = windows.last(where: { $0.type == "normal" }) { return window }
        let window = BrowserWindow(id: nextWindowID, type: "normal", isPrivate: false)
        nextWindowID += 1
        windows.append(window)
        if focusedWindowID == nil { focusedWindowID = window.id }
        return window
    }

    /// Opens a window with a tab for each of `urls` (the first active), as `windows.create` does:
    /// `windows.onCreated` fires, then the tabs open, and a focused window comes to the front
    /// (`windows.onFocusChanged`).
    /// - Throws: as ``openTab(url:active:isPrivate:)``.
    @discardableResult
    public func openWindow(urls: [String], type: String = "normal", focused: Bool = true, isPrivate: Bool = false,
                           openedBy host: ExtensionHost? = nil,
                           bounds: BrowserWindow.Bounds = .standard,
                           state: String = "normal") throws -> BrowserWindow {
        let window = BrowserWindow(id: nextWindowID, type: type, isPrivate: isPrivate)
        window.bounds = bounds
        window.state = state
        nextWindowID += 1
        windows.append(window)
        trace.record(.navigation, at: "window\(window.id)", "open \(type)" + (isPrivate ? " (private)" : ""))
        broadcast("windows.onCreated", json: [windowJSON(window)])
        if focused { focus(window) }
        for (index, url) in (urls.isEmpty ? ["about:blank"] : urls).enumerated() {
            try openTab(url: url, active: index == 0, isPrivate: isPrivate, in: window, openedBy: host)
        }
        return window
    }

    /// What windows.create or windows.update asks of a window's place, size, state and focus.
    struct WindowChange {
        var left: Int?, top: Int?, width: Int?, height: Int?
        var state: String?
        var focused: Bool?
        /// The bounds a new window opens with (the default's where none is given).
        var bounds: BrowserWindow.Bounds {
            let standard = BrowserWindow.Bounds.standard
            return BrowserWindow.Bounds(left: left ?? standard.left, top: top ?? standard.top,
                                        width: width ?? standard.width, height: height ?? standard.height)
        }
        var hasBounds: Bool { left != nil || top != nil || width != nil || height != nil }
    }
    struct WindowRefusal: Error { let result: APIResult }

    /// Reads a create or update dictionary (its types already checked in the caller:
    /// browser-api.js) and refuses what the browser refuses. Chrome (windows_api.cc): bounds with
    /// a state other than normal, a minimized window focused, and a maximized or full-screen one
    /// unfocused are "Invalid value for state". Safari refused bounds with another state in the
    /// caller.
    func windowChange(_ fields: [String: String]) -> Result<WindowChange, WindowRefusal> {
        func integer(_ key: String) -> Int? { fields[key].flatMap(Double.init).map { Int($0.rounded(.towardZero)) } }
        let change = WindowChange(left: integer("left"), top: integer("top"), width: integer("width"), height: integer("height"),
                                  state: fields["state"].map(JSONText.decodeString), focused: fields["focused"].map { $0 == "true" })
        if options.profile == .chromium, let state = change.state, state != "normal" {
            let refused = change.hasBounds || (state == "minimized" && change.focused == true)
                || ((state == "maximized" || state == "fullscreen" || state == "locked-fullscreen") && change.focused == false)
            if refused { return .failure(WindowRefusal(result: .error("Invalid value for state"))) }
        }
        return .success(change)
    }

    /// Applies `change` to `window`: its state, then its bounds (Chrome fires
    /// windows.onBoundsChanged when they change; WebKit has no such event), then its focus
    /// (`focused: false` brings the newest other window to the front, as Chrome brings the next in its
    /// z-order; the harness keeps no z-order beyond the focused window).
    func update(_ window: BrowserWindow, with change: WindowChange) {
        if let state = change.state, state != window.state {
            window.state = state
            trace.record(.navigation, at: "window\(window.id)", "state \(state)")
        }
        if change.hasBounds {
            let bounds = BrowserWindow.Bounds(left: change.left ?? window.bounds.left, top: change.top ?? window.bounds.top,
                                              width: change.width ?? window.bounds.width, height: change.height ?? window.bounds.height)
            if bounds != window.bounds {
                window.bounds = bounds
                trace.record(.navigation, at: "window\(window.id)", "bounds \(bounds.left),\(bounds.top) \(bounds.width)x\(bounds.height)")
                if options.profile == .chromium { broadcast("windows.onBoundsChanged", json: [windowJSON(window)]) }
            }
        }
        if change.focused == true { focus(window) }
        if change.focused == false, focusedWindowID == window.id, let behind = windows.last(where: { $0 !== window }) {
            focus(behind)
        }
    }

    /// Brings `window` to the front: `windows.onFocusChanged` fires with its id.
    public func focus(_ window: BrowserWindow) {
        guard focusedWindowID != window.id else { return }
        if focusedWindowID != nil { dismissPopups(because: "another window came to the front") }
        focusedWindowID = window.id
        trace.record(.navigation, at: "window\(window.id)", "focus")
        broadcast("windows.onFocusChanged", json: ["\(window.id)"])
    }

    /// Closes `window` and its tabs (tabs.onRemoved with isWindowClosing), then windows.onRemoved;
    /// the window behind it comes to the front.
    public func closeWindow(_ window: BrowserWindow) {
        guard let index = windows.firstIndex(where: { $0 === window }) else { return }
        for tab in tabs(in: window).reversed() { close(tab, windowClosing: true) }
        windows.remove(at: index)
        trace.record(.navigation, at: "window\(window.id)", "close")
        broadcast("windows.onRemoved", json: ["\(window.id)"])
        if focusedWindowID == window.id {
            focusedWindowID = nil
            if let next = windows.last { focus(next) }
        }
    }

    /// `windows.Window` as JSON, with its tabs as `host` sees them when `populate`.
    func windowJSON(_ window: BrowserWindow, populate: Bool = false, for host: ExtensionHost? = nil) -> String {
        var fields: [(String, String)] = [
            ("alwaysOnTop", "false"), ("focused", focusedWindow === window ? "true" : "false"), ("height", "\(window.bounds.height)"), ("id", "\(window.id)"),
            ("incognito", window.isPrivate ? "true" : "false"), ("left", "\(window.bounds.left)"), ("state", JSONText.string(window.state)), ("top", "\(window.bounds.top)"),
            ("type", JSONText.string(window.type)), ("width", "\(window.bounds.width)"),
        ]
        if populate, let host { fields.append(("tabs", JSONText.array(tabs(in: window).map { tabJSON($0, for: host) }))) }
        return JSONText.object(fields)
    }

    /// "No window with id: 7." in Chrome (extensions/browser/api/tabs/windows_util.cc,
    /// kWindowNotFoundError); Safari's bindings: "Invalid call to windows.get(). Window not found."
    func noWindow(_ api: String, _ id: String) -> APIResult {
        options.profile == .chromium ? .error("No window with id: \(id).") : .error("Invalid call to \(api). Window not found.")
    }

    /// The window `call` means by `windows.WINDOW_ID_CURRENT` (-2) or no id: the caller's own
    /// window for an extension page in a tab, else the focused one.
    func currentWindow(of call: APICall) -> BrowserWindow? {
        if case let .tab(tabID, _) = call.context.kind, let tab = tab(tabID), let window = window(tab.windowID) { return window }
        return focusedWindow
    }

    func handleWindows(_ call: APICall) -> APIResult {
        let host = call.context.host
        let api = "windows.\(call.method)()"
        /// `{populate}` of a getInfo/queryOptions argument.
        func populate(_ index: Int) -> Bool { JSONText.fields(call.argument(index))["populate"] == "true" }
        switch call.method {
        case "get":
            guard let text = call.argument(0), let id = Int(text) else { return noWindow(api, call.argument(0) ?? "undefined") }
            guard let window = id == -2 ? currentWindow(of: call) : window(id) else { return noWindow(api, text) }
            return .json(windowJSON(window, populate: populate(1), for: host))
        case "getCurrent":
            guard let window = currentWindow(of: call) else { return noWindow(api, "-2") }
            return .json(windowJSON(window, populate: populate(0), for: host))
        case "getLastFocused":
            guard let window = focusedWindow else { return noWindow(api, "-2") }
            return .json(windowJSON(window, populate: populate(0), for: host))
        case "getAll":
            let types = JSONText.fields(call.argument(0))["windowTypes"].map { JSONText.elements($0).map(JSONText.decodeString) }
            let listed = windows.filter { types?.contains($0.type) ?? true }
            return .json(JSONText.array(listed.map { windowJSON($0, populate: populate(0), for: host) }))
        case "create":
            let fields = JSONText.fields(call.argument(0))
            var urls: [String] = []
            if let url = fields["url"] {
                let given = JSONText.kind(url) == .array ? JSONText.elements(url).map(JSONText.decodeString) : [JSONText.decodeString(url)]
                for text in given {
                    guard let resolved = resolveURL(text, from: call.context) else {
                        return .error(options.profile == .chromium ? "Invalid url: \"\(text)\"." : "Invalid call to \(api). The 'url' value is invalid, because '\(text)' is not a valid URL.")
                    }
                    urls.append(resolved)
                }
            }
            var type = fields["type"].map(JSONText.decodeString) ?? "normal"
            if type == "panel" || type == "detached_panel" { type = "popup" }
            let change: WindowChange
            switch windowChange(fields) {
            case .success(let made): change = made
            case .failure(let refusal): return refusal.result
            }
            do {
                let window = try openWindow(urls: urls, type: type, focused: change.focused ?? (change.state != "minimized"),
                                            isPrivate: fields["incognito"] == "true", openedBy: host,
                                            bounds: change.bounds, state: change.state ?? "normal")
                return .json(windowJSON(window, populate: true, for: host))
            } catch {
                return .error("\(error)")
            }
        case "update":
            guard let text = call.argument(0), let id = Int(text), let window = id == -2 ? currentWindow(of: call) : window(id) else {
                return noWindow(api, call.argument(0) ?? "undefined")
            }
            switch windowChange(JSONText.fields(call.argument(1))) {
            case .failure(let refusal): return refusal.result
            case .success(let change): update(window, with: change)
            }
            return .json(windowJSON(window, populate: false, for: host))
        case "remove":
            guard let text = call.argument(0), let id = Int(text), let window = id == -2 ? currentWindow(of: call) : window(id) else {
                return noWindow(api, call.argument(0) ?? "undefined")
            }
            closeWindow(window)
            return .undefined
        default:
            return .error("windows.\(call.method) is not available")
        }
    }
}
