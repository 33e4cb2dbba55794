import JSKit
import WebRuntime

/// `tabs`: query with every filter, get, getCurrent, sendMessage, create, update, remove,
/// reload, and the selection and grouping calls (Chrome's highlight, group, ungroup) and
/// Safari's Reader. Arguments were checked in the caller (JS/tabs-arguments.js) in the
/// profile's words; what remains here is what only the browser knows: which tabs and windows
/// exist and what a change does to them. Traversal, duplicate, move, discard, zoom and the rest
/// are in Browser+TabsMore.
extension Browser {
    /// Chrome's "No tab with id: 7." (tabs_constants.cc kTabNotFoundError); Safari's
    /// "Invalid call to tabs.get(). Tab not found." (WebExtensionContextAPITabsCocoa.mm).
    func noTab(_ method: String, _ id: String?) -> APIResult {
        options.profile == .chromium ? .error("No tab with id: \(id ?? "undefined").") : .error("Invalid call to tabs.\(method)(). Tab not found.")
    }

    /// The tab an optional leading tab id names, or the active tab of the caller's window (both
    /// browsers: "defaults to the selected tab of the current window").
    func tabArgument(_ call: APICall) -> (tab: Tab?, rest: Int) {
        if let first = call.argument(0), let id = Int(first) { return (tab(id), 1) }
        let rest = call.arguments.first.map { $0 == nil || $0 == "null" } == true ? 1 : 0
        return (currentWindow(of: call).flatMap { window in tabs.first { $0.windowID == window.id && $0.isActive } } ?? activeTab, rest)
    }

    func handleTabs(_ call: APICall) -> APIResult {
        let host = call.context.host
        let chromium = options.profile == .chromium
        switch call.method {
        case "query":
            return .json(JSONText.array(query(JSONText.fields(call.argument(0)), for: call).map { tabJSON($0, for: host) }))
        case "get":
            guard let id = call.argument(0).flatMap({ Int($0) }), let tab = tab(id) else { return noTab("get", call.argument(0)) }
            return .json(tabJSON(tab, for: host))
        case "getCurrent":
            // The tab of the calling extension page; nothing for a background or a popup.
            guard case let .tab(tabID, _) = call.context.kind, let tab = tab(tabID) else { return .undefined }
            return .json(tabJSON(tab, for: host))
        case "sendMessage":
            guard let id = call.argument(0).flatMap({ Int($0) }), let tab = tab(id) else { return noTab("sendMessage", call.argument(0)) }
            var frameID: Int?
            if let options = call.argument(2) {
                frameID = JSONText.entries(options).first { $0.key == "frameId" }.flatMap { Int($0.value) }
            }
            let receivers = liveContexts(of: host).filter { context in
                guard case let .content(tabID, frame) = context.kind, tabID == tab.id else { return false }
                return frameID == nil || frameID == frame
            }
            return deliver(call.wireArgument(1) ?? "null", from: call.context, to: receivers, event: "runtime.onMessage")
        case "create":
            return createTab(JSONText.fields(call.argument(0)), call: call)
        case "update":
            let (target, rest) = tabArgument(call)
            guard let tab = target else { return noTab("update", call.argument(0)) }
            return updateTab(tab, JSONText.fields(call.argument(rest)), call: call)
        case "remove":
            let ids: [Int]
            if let json = call.argument(0), JSONText.kind(json) == .array { ids = JSONText.elements(json).compactMap { Int($0) } } else { ids = call.argument(0).flatMap { Int($0) }.map { [$0] } ?? [] }
            // Every id is checked before any tab closes (both browsers refuse the whole call).
            if let missing = ids.first(where: { tab($0) == nil }) {
                return chromium ? .error("No tab with id: \(missing).") : .error("Invalid call to tabs.remove(). Tab '\(missing)' was not found.")
            }
            for id in ids { if let tab = tab(id) { close(tab) } }
            return .undefined
        case "reload":
            // reloadProperties.bypassCache is accepted: nothing is cached to bypass.
            guard let tab = tabArgument(call).tab else { return noTab("reload", call.argument(0)) }
            do { try reload(tab) } catch { return .error("\(error)") }
            return .undefined
        case "highlight":
            return highlight(JSONText.fields(call.argument(0)), call: call)
        case "group":
            return group(JSONText.fields(call.argument(0)), call: call)
        case "ungroup":
            let ids = idList(call.argument(0))
            if let missing = ids.first(where: { tab($0) == nil }) { return .error("No tab with id: \(missing).") }
            for tab in ids.compactMap({ tab($0) }) where tab.groupID != -1 {
                tab.groupID = -1
                trace.record(.navigation, at: "tab\(tab.id)", "ungroup")
                broadcastTabUpdate(tab, change: [("groupId", "-1")])
            }
            return .undefined
        case "toggleReaderMode":
            guard let tab = tabArgument(call).tab else { return noTab("toggleReaderMode", call.argument(0)) }
            // Safari asks the app's tab, which refuses a page Reader cannot show (the words are
            // this runtime's: the app's NSError text is not public).
            guard tab.isInReaderMode || isArticle(tab) else {
                return .error("Invalid call to tabs.toggleReaderMode(). Reader is not available for this page.")
            }
            tab.isInReaderMode.toggle()
            trace.record(.navigation, at: "tab\(tab.id)", tab.isInReaderMode ? "reader on" : "reader off")
            broadcastTabUpdate(tab, change: [("isInReaderMode", tab.isInReaderMode ? "true" : "false")])
            return .undefined
        default:
            return handleMoreTabs(call) ?? .error("tabs.\(call.method) is not available")
        }
    }

    /// Tab ids given as one id or an array of them.
    func idList(_ json: String?) -> [Int] {
        guard let json else { return [] }
        return JSONText.kind(json) == .array ? JSONText.elements(json).compactMap { Int($0) } : [Int(json)].compactMap { $0 }
    }

    /// The tabs `filter` (a tabs.query queryInfo, its types checked) matches, in tab order.
    /// Both browsers: currentWindow is the caller's window (an extension page's own, else the
    /// one in front), lastFocusedWindow the one in front, windowId -2 the current one; a `url`
    /// or `title` filter matches only tabs whose URL the extension may see (WebKit's
    /// WebExtensionTab::matches, Chromium's TabsQueryFunction); `title` is a pattern where `*`
    /// is any run of characters and `?` one, case-sensitive. Safari's `hidden` is "not active";
    /// Chrome's `discarded`, `autoDiscardable`, `groupId` and status "unloaded" are its own.
    func query(_ filter: [String: String], for call: APICall) -> [Tab] {
        let host = call.context.host
        let chromium = options.profile == .chromium
        let current = currentWindow(of: call)?.id, front = focusedWindow?.id
        func flag(_ key: String) -> Bool? { filter[key].map { $0 == "true" } }
        let patterns: [MatchPattern]? = filter["url"].map { text in
            (JSONText.kind(text) == .array ? JSONText.elements(text) : [text]).compactMap { try? MatchPattern(JSONText.decodeString($0)) }
        }
        let title = filter["title"].map(JSONText.decodeString)
        let status = filter["status"].map(JSONText.decodeString)
        let windowType = filter["windowType"].map(JSONText.decodeString)
        let index = filter["index"].flatMap(Double.init).map { Int($0) }
        let windowID = filter["windowId"].flatMap(Double.init).map { Int($0) }
        let highlighted = flag("highlighted") ?? flag("selected")
        return tabs.filter { tab in
            if let wanted = flag("active"), wanted != tab.isActive { return false }
            if !chromium, let wanted = flag("hidden"), wanted == tab.isActive { return false }
            if let wanted = flag("pinned"), wanted != tab.isPinned { return false }
            if let wanted = flag("muted"), wanted != tab.isMuted { return false }
            if flag("audible") == true { return false }
            if let wanted = highlighted, wanted != tab.isHighlighted { return false }
            if let windowID, (windowID == -2 ? current : windowID) != tab.windowID { return false }
            if let wanted = flag("currentWindow"), wanted != (tab.windowID == current) { return false }
            if let wanted = flag("lastFocusedWindow"), wanted != (tab.windowID == front) { return false }
            if let windowType, window(tab.windowID)?.type != windowType { return false }
            if let index, windowIndex(of: tab) != index { return false }
            if let status {
                let own = chromium && tab.isDiscarded ? "unloaded" : tab.page?.readyState == "complete" ? "complete" : "loading"
                if own != status { return false }
            }
            if chromium {
                if let wanted = flag("discarded"), wanted != tab.isDiscarded { return false }
                if let wanted = flag("autoDiscardable"), wanted != tab.autoDiscardable { return false }
                if flag("frozen") == true { return false }
                if let group = filter["groupId"].flatMap(Double.init).map({ Int($0) }), group != tab.groupID { return false }
            }
            if patterns != nil || title != nil {
                guard seesURL(of: tab, host) else { return false }
                if let patterns, !patterns.contains(where: { $0.matches(tab.url) }) { return false }
                if let title, !Self.wildcard(title, matches: tab.title) { return false }
            }
            return true
        }
    }

    /// `*` any run of characters, `?` any one; everything else itself.
    static func wildcard(_ pattern: String, matches text: String) -> Bool {
        let p = Array(pattern), t = Array(text)
        var pi = 0, ti = 0, star = -1, mark = 0
        while ti < t.count {
            if pi < p.count, p[pi] == "?" || p[pi] == t[ti] { pi += 1; ti += 1 } else if pi < p.count, p[pi] == "*" { star = pi; mark = ti; pi += 1 } else if star >= 0 { pi = star + 1; mark += 1; ti = mark } else { return false }
        }
        while pi < p.count, p[pi] == "*" { pi += 1 }
        return pi == p.count
    }

    /// tabs.create: the window (windowId, -2 the current one), the index (pinned tabs stay
    /// first), active, pinned, muted and openInReaderMode (Safari), and the opener.
    private func createTab(_ fields: [String: String], call: APICall) -> APIResult {
        let host = call.context.host
        let written = fields["url"].map(JSONText.decodeString) ?? "about:blank"
        guard let url = resolveURL(written, from: call.context) else { return invalidURL("tabs.create()", written) }
        var window: BrowserWindow?
        if let id = fields["windowId"] {
            guard let number = Int(id), let found = number == -2 ? currentWindow(of: call) : self.window(number) else { return noWindow("tabs.create()", id) }
            window = found
        }
        var opener: Tab?
        if let id = fields["openerTabId"] {
            guard let found = Int(id).flatMap({ tab($0) }) else { return noTab("create", id) }
            opener = found
        }
        let index = fields["index"].flatMap(Double.init).map { Int($0) }
        do {
            let tab = try openTab(url: url, active: fields["active"] != "false", in: window, openedBy: host, index: index,
                                  pinned: fields["pinned"] == "true", muted: fields["muted"] == "true", opener: opener)
            if fields["muted"] == "true" { tab.mutedBy = host.id }
            if options.profile == .safari, fields["openInReaderMode"] == "true", isArticle(tab) { tab.isInReaderMode = true }
            return .json(tabJSON(tab, for: host))
        } catch {
            return .error("\(error)")
        }
    }

    /// tabs.update: each property that changes fires tabs.onUpdated with it (pinning also moves
    /// the tab to the edge of the pinned tabs, with tabs.onMoved); `active: true` activates,
    /// `highlighted` adds to or takes from the window's selection (never the active tab's own
    /// place in it), and `url` navigates last.
    private func updateTab(_ tab: Tab, _ fields: [String: String], call: APICall) -> APIResult {
        let host = call.context.host
        let chromium = options.profile == .chromium
        var url: String?
        if let written = fields["url"].map(JSONText.decodeString) {
            // Chrome refuses javascript: URLs here (tabs_constants.cc kJavaScriptUrlsNotAllowedInTabsUpdate).
            if chromium, written.lowercased().hasPrefix("javascript:") {
                return .error("JavaScript URLs are not allowed in chrome.tabs.update. Use chrome.tabs.executeScript instead.")
            }
            guard let resolved = resolveURL(written, from: call.context) else { return invalidURL("tabs.update()", written) }
            url = resolved
        }
        if let id = fields["openerTabId"] {
            guard let opener = Int(id).flatMap({ self.tab($0) }) else { return noTab("update", id) }
            tab.openerTabID = opener.id
        }
        if fields["active"] == "true" { activate(tab) }
        if let wanted = (fields["highlighted"] ?? fields["selected"]).map({ $0 == "true" }), wanted != tab.isHighlighted, !tab.isActive {
            select(tabs.filter { $0.windowID == tab.windowID && ($0 === tab ? wanted : $0.isHighlighted) }, in: tab.windowID)
        }
        if let wanted = fields["pinned"].map({ $0 == "true" }), wanted != tab.isPinned {
            let from = windowIndex(of: tab)
            tab.isPinned = wanted
            if let global = tabs.firstIndex(where: { $0 === tab }) { tabs.remove(at: global) }
            let to = place(tab, at: from)
            trace.record(.navigation, at: "tab\(tab.id)", wanted ? "pin" : "unpin")
            if to != from {
                broadcast("tabs.onMoved", json: ["\(tab.id)", JSONText.object([("fromIndex", "\(from)"), ("toIndex", "\(to)"), ("windowId", "\(tab.windowID)")])])
            }
            broadcastTabUpdate(tab, change: [("pinned", wanted ? "true" : "false")])
        }
        if let wanted = fields["muted"].map({ $0 == "true" }), wanted != tab.isMuted {
            tab.isMuted = wanted
            tab.mutedBy = wanted ? host.id : nil
            trace.record(.navigation, at: "tab\(tab.id)", wanted ? "mute" : "unmute")
            var info: [(String, String)] = [("muted", wanted ? "true" : "false")]
            if chromium, wanted { info += [("reason", "\"extension\""), ("extensionId", JSONText.string(host.id))] }
            broadcastTabUpdate(tab, change: [("mutedInfo", JSONText.object(info))])
        }
        if chromium, let wanted = fields["autoDiscardable"].map({ $0 == "true" }), wanted != tab.autoDiscardable {
            tab.autoDiscardable = wanted
            broadcastTabUpdate(tab, change: [("autoDiscardable", wanted ? "true" : "false")])
        }
        if let url {
            do { try navigate(tab, to: url) } catch { return .error("\(error)") }
        }
        return .json(tabJSON(tab, for: host))
    }

    /// Chrome's tabs.highlight({tabs, windowId}): tabs by index in the window (the current one
    /// by default); the first becomes active and they all the selection, and the window is the
    /// answer (Chromium's TabsHighlightFunction: "No tab at index: 4.", "No highlighted tab").
    private func highlight(_ info: [String: String], call: APICall) -> APIResult {
        let host = call.context.host
        let window: BrowserWindow?
        if let id = info["windowId"].flatMap({ Int($0) }) { window = id == -2 ? currentWindow(of: call) : self.window(id) } else { window = currentWindow(of: call) }
        guard let window else { return noWindow("tabs.highlight()", info["windowId"] ?? "-2") }
        let inWindow = tabs(in: window)
        let indices = idList(info["tabs"])
        var chosen: [Tab] = []
        for index in indices {
            guard inWindow.indices.contains(index) else { return .error("No tab at index: \(index).") }
            if !chosen.contains(where: { $0 === inWindow[index] }) { chosen.append(inWindow[index]) }
        }
        guard let first = chosen.first else { return .error("No highlighted tab") }
        trace.record(.navigation, at: "window\(window.id)", "highlight " + chosen.map { "tab\($0.id)" }.joined(separator: " "))
        if first.isActive { select(chosen, in: window.id) } else { activate(first, selecting: chosen) }
        return .json(windowJSON(window, populate: true, for: host))
    }

    /// Chrome's tabs.group({tabIds, groupId, createProperties}): the tabs join a new group (in
    /// createProperties.windowId, else the first tab's window) or an existing one, moved next
    /// to each other after the group's first tab and unpinned, as Chromium's TabStripModel
    /// groups them; each gets tabs.onUpdated with its groupId, and the group's id is the answer.
    /// Group ids are counted from 1 (Chrome's are opaque numbers).
    private func group(_ options: [String: String], call: APICall) -> APIResult {
        let ids = idList(options["tabIds"])
        if let missing = ids.first(where: { tab($0) == nil }) { return .error("No tab with id: \(missing).") }
        guard !ids.isEmpty else { return .error("You must specify at least one tab.") }
        let chosen = ids.compactMap { tab($0) }
        let groupID: Int
        let window: BrowserWindow?
        if let given = options["groupId"].flatMap({ Int($0) }) {
            guard let member = tabs.first(where: { $0.groupID == given }) else { return .error("No group with id: \(given).") }
            groupID = given
            window = self.window(member.windowID)
        } else {
            let windowID = JSONText.fields(options["createProperties"])["windowId"].flatMap { Int($0) }
            if let windowID {
                window = windowID == -2 ? currentWindow(of: call) : self.window(windowID)
                guard window != nil else { return noWindow("tabs.group()", "\(windowID)") }
            } else {
                window = self.window(chosen[0].windowID)
            }
            nextGroupID += 1
            groupID = nextGroupID
        }
        guard let window else { return noWindow("tabs.group()", "-2") }
        guard window.type == "normal", chosen.allSatisfy({ self.window($0.windowID)?.type == "normal" }) else {
            return .error("Tabs can only be moved to and from normal windows.")
        }
        // The group's place: after its last member, or where the first chosen tab is.
        let anchor = tabs(in: window).lastIndex { $0.groupID == groupID }.map { $0 + 1 }
            ?? (chosen[0].windowID == window.id ? windowIndex(of: chosen[0]) : tabs(in: window).count)
        var at = anchor
        for tab in chosen {
            let wasHere = tab.windowID == window.id
            let from = windowIndex(of: tab)
            if wasHere {
                if from < at { at -= 1 }
                if let global = tabs.firstIndex(where: { $0 === tab }) { tabs.remove(at: global) }
            } else {
                detach(tab)
                tab.windowID = window.id
            }
            tab.isPinned = false
            let to = place(tab, at: at)
            at = to + 1
            if wasHere, to != from {
                broadcast("tabs.onMoved", json: ["\(tab.id)", JSONText.object([("fromIndex", "\(from)"), ("toIndex", "\(to)"), ("windowId", "\(tab.windowID)")])])
            }
            if !wasHere {
                broadcast("tabs.onAttached", json: ["\(tab.id)", JSONText.object([("newPosition", "\(to)"), ("newWindowId", "\(window.id)")])])
            }
            if tab.groupID != groupID {
                tab.groupID = groupID
                trace.record(.navigation, at: "tab\(tab.id)", "group \(groupID)")
                broadcastTabUpdate(tab, change: [("groupId", "\(groupID)")])
            }
        }
        return .json("\(groupID)")
    }
}
