import Foundation
import JSKit
import WebRuntime

/// One context-menu item an extension made (`menus.create` / `contextMenus.create`).
struct MenuItem {
    var id: String
    var title: String?
    var type: String
    var contexts: [String]
    var parentID: String?
    var checked: Bool
    var enabled: Bool
    var visible: Bool
    var documentURLPatterns: [String]?
    var targetURLPatterns: [String]?
}

/// What the user right-clicked: the element's kind and URLs, as the menu's click info says them.
public struct MenuTarget: Sendable {
    public var linkURL: String?
    public var srcURL: String?
    /// `image`, `video` or `audio` for a media element.
    public var mediaType: String?
    public var editable = false
    public var selectionText: String?
    public init(linkURL: String? = nil, srcURL: String? = nil, mediaType: String? = nil, editable: Bool = false, selectionText: String? = nil) {
        self.linkURL = linkURL
        self.srcURL = srcURL
        self.mediaType = mediaType
        self.editable = editable
        self.selectionText = selectionText
    }
}

extension Browser {
    /// Chromium's kMaxItemsPerExtension (context_menus_api_helpers.cc); WebKit has no limit.
    static let maximumMenuItems = 1000
    /// Contexts each browser knows (Safari ignores any other; Chrome's bindings refuse it).
    static let menuContexts: Set<String> = ["all", "page", "frame", "selection", "link", "editable", "image", "video", "audio", "tab", "action"]

    /// `host.menuID(contextId)` for browser-api.js's create(): an id for an item made without
    /// one — Safari makes a UUID (here from the extension's count of items, so runs repeat);
    /// Chrome refuses the call in a Manifest V3 extension (service worker), so it never asks.
    static func installMenuFunctions(_ define: (String, Int, @escaping (Browser, HostCall) throws -> JSValue?) throws -> Void) throws {
        try define("menuID", 1) { browser, call in
            guard let context = browser.contexts[Int(try call.argument(0).toNumber())] else { throw Browser.contextInvalidated }
            context.host.menuIDs += 1
            let n = UInt64(context.host.menuIDs)
            let a = n &* 0x9E37_79B9_7F4A_7C15, b = (n &+ 0x632B_E59B_D9B4_E019) &* 0xBF58_476D_1CE4_E5B9
            let hex = Array(String(format: "%016llx%016llx", a, b))
            let part = { (range: Range<Int>) in String(hex[range]) }
            let id = "\(part(0..<8))-\(part(8..<12))-4\(part(13..<16))-8\(part(17..<20))-\(part(20..<32))".uppercased()
            return call.context.string(id)
        }
    }

    func handleMenus(_ call: APICall) -> APIResult {
        let host = call.context.host
        let chromium = options.profile == .chromium
        let api = "\(call.namespace).\(call.method)()"
        /// Safari's UI-process errors ("Invalid call to menus.create(). Parent menu item not found.").
        func safari(_ text: String) -> APIResult { .error("Invalid call to \(api). \(text)") }
        let idOf = { (json: String?) -> String? in
            guard let json else { return nil }
            return JSONText.kind(json) == .string ? JSONText.decodeString(json) : json
        }
        switch call.method {
        case "create":
            let fields = JSONText.fields(call.argument(0))
            guard let id = idOf(fields["id"]) else { return .error("Extensions using event pages or Service Workers must pass an id parameter to chrome.contextMenus.create") }
            if host.menuItems.contains(where: { $0.id == id }) { return chromium ? .error("Cannot create item with duplicate id \(id)") : safari("Identifier is already used.") }
            if chromium, host.menuItems.count >= Self.maximumMenuItems { return .error("An extension can create a maximum of 1000 menu items.") }
            let type = fields["type"].map(JSONText.decodeString) ?? "normal"
            let title = fields["title"].map(JSONText.decodeString)
            if chromium, type != "separator", (title ?? "").isEmpty { return .error("All menu items except for separators must have a title") }
            let parentID = idOf(fields["parentId"])
            var parentContexts: [String]?
            if let parentID {
                guard let parent = host.menuItems.first(where: { $0.id == parentID }) else {
                    return chromium ? .error("Cannot find menu item with id \(parentID)") : safari("Parent menu item not found.")
                }
                if chromium, parent.type != "normal" { return .error("Parent items must have type \"normal\"") }
                parentContexts = parent.contexts
            }
            var contexts = fields["contexts"].map { JSONText.elements($0).map(JSONText.decodeString).filter(Self.menuContexts.contains) } ?? []
            // Safari inherits the parent's contexts; both default to the page.
            if contexts.isEmpty { contexts = (chromium ? nil : parentContexts) ?? ["page"] }
            let item = MenuItem(id: id, title: title, type: type, contexts: contexts, parentID: parentID,
                                checked: fields["checked"] == "true", enabled: fields["enabled"] != "false", visible: fields["visible"] != "false",
                                documentURLPatterns: fields["documentUrlPatterns"].map { JSONText.elements($0).map(JSONText.decodeString) },
                                targetURLPatterns: fields["targetUrlPatterns"].map { JSONText.elements($0).map(JSONText.decodeString) })
            host.menuItems.append(item)
            return .undefined
        case "update":
            guard let id = idOf(call.argument(0)), let index = host.menuItems.firstIndex(where: { $0.id == id }) else {
                return chromium ? .error("Cannot find menu item with id \(idOf(call.argument(0)) ?? "undefined")") : safari("Menu item not found.")
            }
            let fields = JSONText.fields(call.argument(1))
            var item = host.menuItems[index]
            if let title = fields["title"] { item.title = JSONText.decodeString(title) }
            if let type = fields["type"] { item.type = JSONText.decodeString(type) }
            if let checked = fields["checked"] {
                if chromium, checked == "true", item.type != "checkbox", item.type != "radio" { return .error("Only items with type \"radio\" or \"checkbox\" can be checked") }
                item.checked = checked == "true"
            }
            if let enabled = fields["enabled"] { item.enabled = enabled == "true" }
            if let visible = fields["visible"] { item.visible = visible == "true" }
            if let contexts = fields["contexts"] {
                let list = JSONText.elements(contexts).map(JSONText.decodeString).filter(Self.menuContexts.contains)
                item.contexts = list.isEmpty ? ["page"] : list
            }
            if let parent = fields["parentId"] {
                let parentID = idOf(parent)
                if let parentID {
                    guard host.menuItems.contains(where: { $0.id == parentID }) else { return chromium ? .error("Cannot find menu item with id \(parentID)") : safari("Parent menu item not found.") }
                    if parentID == id || descendants(of: id, in: host).contains(parentID) {
                        return chromium ? .error("Cannot find menu item with id \(parentID)") : safari("Parent menu item cannot be itself or another ancestor.")
                    }
                }
                item.parentID = parentID
            }
            if let newID = idOf(fields["id"]), newID != id {
                // Safari re-keys the item (and its children's parent).
                item.id = newID
                for child in host.menuItems.indices where host.menuItems[child].parentID == id { host.menuItems[child].parentID = newID }
            }
            host.menuItems[index] = item
            return .undefined
        case "remove":
            guard let id = idOf(call.argument(0)), host.menuItems.contains(where: { $0.id == id }) else {
                return chromium ? .error("Cannot find menu item with id \(idOf(call.argument(0)) ?? "undefined")") : safari("Menu item not found.")
            }
            let gone = Set([id] + descendants(of: id, in: host))
            host.menuItems.removeAll { gone.contains($0.id) }
            return .undefined
        case "removeAll":
            host.menuItems = []
            return .undefined
        default:
            return .error("\(call.name) is not available")
        }
    }

    /// The ids under `id`, at any depth.
    func descendants(of id: String, in host: ExtensionHost) -> [String] {
        let children = host.menuItems.filter { $0.parentID == id }.map(\.id)
        return children + children.flatMap { descendants(of: $0, in: host) }
    }

    /// The user chooses `host`'s menu item `id` in the context menu of `target` on `tab`'s page
    /// (the active tab by default): a checkbox toggles, a radio item checks and unchecks its
    /// neighbours, activeTab is granted, and `onClicked(info, tab)` fires in the extension's
    /// pages with the gesture in force (on `menus` and `contextMenus` alike in Safari).
    /// - Throws: ``BrowserError`` when there is no such item, or it is not in that menu (hidden,
    ///   disabled, its contexts or URL patterns do not apply).
    public func clickMenuItem(_ id: String, of host: ExtensionHost, on target: MenuTarget = MenuTarget(), in tab: Tab? = nil) throws {
        guard let index = host.menuItems.firstIndex(where: { $0.id == id }) else {
            throw BrowserError("'\(host.bundle.manifest.name)' has no menu item '\(id)'" + (host.menuItems.isEmpty ? "" : " (it has \(host.menuItems.map(\.id).joined(separator: ", ")))"))
        }
        guard let tab = tab ?? activeTab else { throw BrowserError("no tab to open a context menu in: open a tab first") }
        var item = host.menuItems[index]
        var shown: Set<String> = ["page", "all"]
        if target.linkURL != nil { shown.insert("link") }
        if let media = target.mediaType { shown.insert(media) }
        if target.editable { shown.insert("editable") }
        if target.selectionText != nil { shown.insert("selection") }
        guard item.visible, item.enabled else { throw BrowserError("menu item '\(id)' is \(item.visible ? "disabled" : "hidden")") }
        guard item.contexts.contains(where: shown.contains) else {
            throw BrowserError("menu item '\(id)' is not in this menu: its contexts are \(item.contexts.joined(separator: ", ")), the click is on \(shown.sorted().joined(separator: ", "))")
        }
        if let patterns = item.documentURLPatterns, !patterns.contains(where: { (try? MatchPattern($0))?.matches(tab.url) == true }) {
            throw BrowserError("menu item '\(id)' is not in this menu: documentUrlPatterns do not match \(tab.url)")
        }
        if let patterns = item.targetURLPatterns, let url = target.linkURL ?? target.srcURL,
           !patterns.contains(where: { (try? MatchPattern($0))?.matches(url) == true }) {
            throw BrowserError("menu item '\(id)' is not in this menu: targetUrlPatterns do not match \(url)")
        }
        let chromium = options.profile == .chromium
        let wasChecked = item.checked
        if item.type == "checkbox" { item.checked.toggle() }
        if item.type == "radio" {
            item.checked = true
            // The radio items next to it (same parent, no other type between) are unchecked.
            let siblings = host.menuItems.indices.filter { host.menuItems[$0].parentID == item.parentID }
            if let at = siblings.firstIndex(of: index) {
                var run: [Int] = []
                var cursor = at - 1
                while cursor >= 0, host.menuItems[siblings[cursor]].type == "radio" { run.append(siblings[cursor]); cursor -= 1 }
                cursor = at + 1
                while cursor < siblings.count, host.menuItems[siblings[cursor]].type == "radio" { run.append(siblings[cursor]); cursor += 1 }
                for other in run { host.menuItems[other].checked = false }
            }
        }
        host.menuItems[index] = item
        /// Safari gives numeric-looking ids back as numbers (toMenuIdentifierWebAPI).
        func idJSON(_ value: String) -> String { !chromium && Double(value) != nil ? value : JSONText.string(value) }
        var info: [(String, String)] = [("menuItemId", idJSON(item.id))]
        if let parent = item.parentID { info.append(("parentMenuItemId", idJSON(parent))) }
        if item.type == "checkbox" || item.type == "radio" { info += [("checked", item.checked ? "true" : "false"), ("wasChecked", wasChecked ? "true" : "false")] }
        if let link = target.linkURL { info.append(("linkUrl", JSONText.string(link))) }
        if let src = target.srcURL { info.append(("srcUrl", JSONText.string(src))) }
        if let media = target.mediaType { info.append(("mediaType", JSONText.string(media))) }
        if let selection = target.selectionText { info.append(("selectionText", JSONText.string(selection))) }
        info += [("editable", target.editable ? "true" : "false"), ("frameId", "0"), ("pageUrl", JSONText.string(tab.url))]
        let infoJSON = JSONText.object(info.sorted { $0.0 < $1.0 })
        trace.record(.toolbar, at: "tab\(tab.id)", "context menu item \(JSONText.string(id)) of \(host.bundle.manifest.name)")
        grantActiveTab(host, tab: tab)
        wakeIfNeeded(host, for: "contextMenus.onClicked")
        wakeIfNeeded(host, for: "menus.onClicked")
        for context in liveContexts(of: host) where context.kind.isPrivileged {
            for namespace in ["menus", "contextMenus"] {
                context.dispatch("\(namespace).onClicked", json: [infoJSON, tabJSON(tab, for: host)], userGesture: true)
            }
        }
    }
}
