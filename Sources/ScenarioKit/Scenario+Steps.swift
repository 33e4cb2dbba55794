import BlockerCore
import BrowserRuntime
import WebRuntime

extension ScenarioReader {
    /// Step keys that name the action; exactly one per step.
    static let actionKeys: Set<String> = [
        "open", "navigate", "reload", "back", "forward", "close", "activate", "script", "click", "key", "type", "media", "viewport", "permission", "clickToolbar", "command", "contextMenu", "nativeMessage",
        "suspendBackground", "wakeBackground", "runUntilIdle", "testMessage", "expect",
    ]
    static let modifierKeys: Set<String> = ["at", "after", "tab", "world", "private", "trusted", "selector", "set", "note"]

    func step(_ value: JSONValue, _ path: String, after previous: VirtualTime, tabs: inout Set<String>) throws -> Scenario.Step {
        let fields = try object(value, path, allowed: Self.actionKeys.union(Self.modifierKeys))
        var at = previous
        if let absolute = fields["at"] {
            guard fields["after"] == nil else { throw fail(path, "give 'at' or 'after', not both") }
            at = try milliseconds(absolute, path + ".at")
        } else if let relative = fields["after"] {
            at = previous + (try milliseconds(relative, path + ".after"))
            // Each time is bounded, and so is their sum: no step lands past the last instant.
            guard at.milliseconds <= Self.maxMilliseconds else {
                throw fail(path + ".after", "puts the step at \(shown(at.milliseconds)) ms, past 10^12 ms")
            }
        }
        let actions = fields.keys.filter { Self.actionKeys.contains($0) }.sorted()
        guard actions.count == 1, let key = actions.first else {
            throw fail(path, actions.isEmpty ? "needs one action (\(Self.actionKeys.sorted().joined(separator: ", ")))" : "has several actions (\(actions.joined(separator: ", "))); use one step each")
        }
        let tab = try fields["tab"].map { try string($0, path + ".tab") } ?? "main"
        func knownTab(_ name: String, _ where_: String) throws -> String {
            // "popup" names the extension's open popup page (clicks, keys and typing in it);
            // "opened:…" a tab the extension opened, found when the step runs.
            guard tabs.contains(name) || Self.isOpenedAddress(name) || (name == "popup" && (key == "click" || key == "key" || key == "type")) else {
                throw fail(where_, "no open tab named '\(name)' at this point (open it first)")
            }
            return name
        }
        let actionPath = path + "." + key
        let action: Scenario.Action
        switch key {
        case "open":
            guard !tab.hasPrefix(Self.openedPrefix) else {
                throw fail(path + ".tab", "names beginning with '\(Self.openedPrefix)' address tabs the extension opened; choose another name")
            }
            guard !tabs.contains(tab) else { throw fail(path + ".tab", "a tab named '\(tab)' is already open") }
            tabs.insert(tab)
            action = .open(tab: tab, url: try url(fields[key], actionPath), isPrivate: try bool(fields["private"], path + ".private", default: false))
        case "navigate":
            action = .navigate(tab: try knownTab(tab, path + ".tab"), url: try url(fields[key], actionPath))
        case "reload", "back", "forward", "close", "activate":
            let name = try string(fields[key], actionPath)
            _ = try knownTab(name, actionPath)
            if key == "close" { tabs.remove(name) }
            switch key {
            case "reload": action = .reload(tab: name)
            case "back", "forward": action = .traverse(tab: name, delta: key == "back" ? -1 : 1)
            case "close": action = .close(tab: name)
            default: action = .activate(tab: name)
            }
        case "script":
            let world = try fields["world"].map { try string($0, path + ".world") } ?? "page"
            try checkWorld(world, path + ".world")
            let tabName = world == "background" || world == "popup" ? tab : try knownTab(tab, path + ".tab")
            action = .script(tab: tabName, world: world, source: try string(fields[key], actionPath))
        case "click":
            action = .click(tab: try knownTab(tab, path + ".tab"), selector: try selector(fields[key], actionPath),
                            trusted: try bool(fields["trusted"], path + ".trusted", default: true))
        case "key":
            action = .key(tab: try knownTab(tab, path + ".tab"), key: try string(fields[key], actionPath),
                          selector: try fields["selector"].map { try selector($0, path + ".selector") })
        case "type":
            guard let target = fields["selector"] else { throw fail(path + ".selector", "is required: the text field to type into") }
            action = .type(tab: try knownTab(tab, path + ".tab"), text: try string(fields[key], actionPath),
                           selector: try selector(target, path + ".selector"))
        case "media":
            let set = try object(fields["set"], path + ".set")
            guard !set.isEmpty else { throw fail(path + ".set", "must name at least one property") }
            action = .media(tab: try knownTab(tab, path + ".tab"), selector: try selector(fields[key], actionPath),
                            properties: set.keys.sorted().compactMap { name in set[name].map { (name, json($0)) } })
        case "viewport":
            let spec = try object(fields[key], actionPath, allowed: ["width", "height"])
            func side(_ name: String) throws -> Int {
                guard case let .number(number)? = spec[name], let value = Int(exactly: number), (1...10_000).contains(value) else {
                    throw fail(actionPath + "." + name, "must be a whole number of CSS px from 1 to 10000")
                }
                return value
            }
            action = .viewport(tab: try knownTab(tab, path + ".tab"), width: try side("width"), height: try side("height"))
        case "permission":
            let spec = try object(fields[key], actionPath, allowed: ["host", "state"])
            let text = try string(spec["state"], actionPath + ".state")
            guard let state = SitePermission(rawValue: text) else { throw fail(actionPath + ".state", "'\(text)' must be always, once, denied or not-asked") }
            action = .setPermission(host: try string(spec["host"], actionPath + ".host"), permission: state)
        case "nativeMessage":
            let spec = try object(fields[key], actionPath, allowed: ["application", "message"])
            guard let message = spec["message"], case .object = message else { throw fail(actionPath + ".message", "must be a JSON object") }
            action = .nativeMessage(application: try string(spec["application"], actionPath + ".application"), message: json(message))
        case "clickToolbar":
            let name = try string(fields[key], actionPath)
            action = .clickToolbar(tab: try knownTab(name, actionPath))
        case "contextMenu":
            let spec = try object(fields[key], actionPath, allowed: ["item", "on", "selection"])
            var item: String
            if case let .number(number)? = spec["item"] { item = JSONText.number(number) } else { item = try string(spec["item"], actionPath + ".item") }
            action = .contextMenu(item: item, selector: try spec["on"].map { try selector($0, actionPath + ".on") },
                                  selection: try spec["selection"].map { try string($0, actionPath + ".selection") }, tab: try knownTab(tab, path + ".tab"))
        case "command":
            action = .command(name: try string(fields[key], actionPath), tab: try knownTab(tab, path + ".tab"))
        case "suspendBackground": action = .suspendBackground
        case "wakeBackground": action = .wakeBackground
        case "runUntilIdle": action = .runUntilIdle
        case "testMessage":
            let spec = try object(fields[key], actionPath, allowed: ["message", "argument"])
            action = .testMessage(message: try string(spec["message"], actionPath + ".message"), argument: json(spec["argument"] ?? .null))
        default:
            action = .expect(try expectation(fields[key], actionPath, tabs: tabs))
        }
        return Scenario.Step(at: at, action: action, path: path)
    }

    /// How steps address a tab the extension opened: `opened:2` (the second tab extensions
    /// opened), `opened:options.html` (the last one on that page of the extension) or
    /// `opened:https://site.example/` (on that URL).
    static let openedPrefix = "opened:"
    static func isOpenedAddress(_ name: String) -> Bool { name.hasPrefix(openedPrefix) && name.count > openedPrefix.count }

    /// An absolute http(s) URL, or `extension:PATH` for a page of the scenario's extension.
    func url(_ value: JSONValue?, _ path: String) throws -> String {
        let text = try string(value, path)
        if text.hasPrefix(Scenario.extensionURLPrefix) {
            let file = text.dropFirst(Scenario.extensionURLPrefix.count)
            guard !file.isEmpty, !file.split(separator: "/").contains("..") else { throw fail(path, "'\(text)' must name a file of the extension (extension:options.html)") }
            return text
        }
        guard let scheme = URLComponentsScheme.of(text), ["http", "https"].contains(scheme) else {
            throw fail(path, "'\(text)' must be an absolute http(s) URL, or extension:PATH for a page of the extension")
        }
        return text
    }

    func selector(_ value: JSONValue?, _ path: String) throws -> String {
        let text = try string(value, path)
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { throw fail(path, "must be a CSS selector") }
        return text
    }

    func checkWorld(_ world: String, _ path: String) throws {
        guard ["page", "content", "background", "popup"].contains(world) else {
            throw fail(path, "'\(world)' must be page, content, background or popup")
        }
    }

    func expectation(_ value: JSONValue?, _ path: String, tabs: Set<String>) throws -> Scenario.Expectation {
        let fields = try object(value, path, allowed: ["js", "world", "tab", "equals", "visible", "hidden", "trace", "noTrace", "error", "channel", "from", "to", "storage", "sessionStorage", "dynamicRules", "toolbar", "testMessage", "argument", "nativeMessages", "lacks"])
        let kinds = ["js", "visible", "hidden", "trace", "noTrace", "error", "storage", "sessionStorage", "dynamicRules", "toolbar", "testMessage", "nativeMessages"].filter { fields[$0] != nil }
        guard kinds.count == 1, let kind = kinds.first else {
            throw fail(path, kinds.isEmpty ? "needs one of js, visible, hidden, trace, noTrace, error, storage, sessionStorage, dynamicRules, toolbar, testMessage, nativeMessages" : "checks several things (\(kinds.joined(separator: ", "))); use one expect step each")
        }
        let tab = try fields["tab"].map { try string($0, path + ".tab") } ?? "main"
        func known() throws -> String {
            guard tabs.contains(tab) || Self.isOpenedAddress(tab) else { throw fail(path + ".tab", "no open tab named '\(tab)' at this point") }
            return tab
        }
        switch kind {
        case "js":
            let world = try fields["world"].map { try string($0, path + ".world") } ?? "page"
            try checkWorld(world, path + ".world")
            guard let equals = fields["equals"] else { throw fail(path + ".equals", "is required with 'js'") }
            return .value(tab: world == "background" || world == "popup" ? nil : try known(), world: world, expression: try string(fields["js"], path + ".js"), equals: json(equals))
        case "visible", "hidden":
            return .visible(tab: try known(), selector: try selector(fields[kind], path + "." + kind), visible: kind == "visible")
        case "trace", "noTrace":
            return .trace(text: try string(fields[kind], path + "." + kind), channel: try fields["channel"].map { try string($0, path + ".channel") },
                          from: try fields["from"].map { try milliseconds($0, path + ".from") }, to: try fields["to"].map { try milliseconds($0, path + ".to") },
                          present: kind == "trace")
        case "error":
            // An error the scenario means to happen: traced (on the error channel) by now. It
            // also makes a background that throws this while starting not a failure.
            return .trace(text: try string(fields[kind], path + ".error"), channel: "error", from: nil, to: nil, present: true)
        case "storage", "sessionStorage":
            _ = try object(fields[kind], path + "." + kind)
            return .storage(area: kind == "storage" ? "local" : "session", equals: json(fields[kind] ?? .null))
        case "dynamicRules":
            guard case .array? = fields[kind] else { throw fail(path + ".dynamicRules", "must be an array of rules") }
            return .dynamicRules(equals: json(fields[kind] ?? .null))
        case "testMessage":
            return .testMessage(message: try string(fields[kind], path + ".testMessage"), argument: fields["argument"].map(json))
        case "nativeMessages":
            let application = try string(fields[kind], path + ".nativeMessages")
            if let equals = fields["equals"], case .array = equals {} else if fields["equals"] != nil {
                throw fail(path + ".equals", "must be an array of the messages sent, in order")
            }
            var lacks: [String] = []
            if let value = fields["lacks"] {
                guard case let .array(items) = value, !items.isEmpty else { throw fail(path + ".lacks", "must be a non-empty array of strings") }
                lacks = try items.enumerated().map { try string($0.element, path + ".lacks[\($0.offset)]") }
            }
            guard fields["equals"] != nil || !lacks.isEmpty else { throw fail(path, "'nativeMessages' needs 'equals', 'lacks' or both") }
            return .nativeMessages(application: application, equals: fields["equals"].map(json), lacks: lacks)
        default:
            let spec = try object(fields[kind], path + ".toolbar", allowed: ["tab", "icon", "badge", "title"])
            let name = try spec["tab"].map { try string($0, path + ".toolbar.tab") } ?? "main"
            guard tabs.contains(name) || Self.isOpenedAddress(name) else { throw fail(path + ".toolbar.tab", "no open tab named '\(name)' at this point") }
            return .toolbar(tab: name, icon: try spec["icon"].map { try string($0, path + ".toolbar.icon") },
                            badge: try spec["badge"].map { try string($0, path + ".toolbar.badge") },
                            title: try spec["title"].map { try string($0, path + ".toolbar.title") })
        }
    }
}

/// The scheme of a URL string, lowercased.
enum URLComponentsScheme {
    static func of(_ url: String) -> String? {
        guard let colon = url.firstIndex(of: ":"), url[url.index(after: colon)...].hasPrefix("//") else { return nil }
        return url[..<colon].lowercased()
    }
}
