import BlockerCore
import BrowserRuntime
import Foundation
import JSKit
import WebRuntime

extension ScenarioRunner {
    func perform(_ step: Scenario.Step) throws {
        let trace = browser.trace
        func note(_ text: String) { trace.record(.harness, at: "scenario", text) }
        switch step.action {
        case let .open(name, url, isPrivate):
            note("open tab \(name) \(url)" + (isPrivate ? " (private)" : ""))
            let resolved = try extensionURL(url, step)
            tabs[name] = try attempt(step) { try browser.openTab(url: resolved, isPrivate: isPrivate) }
        case let .navigate(name, url):
            note("navigate tab \(name) \(url)")
            let resolved = try extensionURL(url, step)
            try attempt(step) { try browser.navigate(try tab(name, step), to: resolved) }
        case let .reload(name):
            note("reload tab \(name)")
            try attempt(step) { try browser.reload(try tab(name, step)) }
        case let .traverse(name, delta):
            note((delta < 0 ? "back" : "forward") + " in tab \(name)")
            try attempt(step) { delta < 0 ? try browser.goBack(try tab(name, step)) : try browser.goForward(try tab(name, step)) }
        case let .close(name):
            note("close tab \(name)")
            browser.close(try tab(name, step))
            tabs[name] = nil
        case let .activate(name):
            note("activate tab \(name)")
            browser.activate(try tab(name, step))
        case let .script(name, worldName, source):
            note("script in \(worldName)" + (worldName == "background" ? "" : " of tab \(name)"))
            let world = try self.world(worldName, tab: worldName == "background" ? nil : name, step)
            do {
                try world.evaluate(source, sourceURL: "scenario:\(step.path)")
            } catch let error as JSError {
                throw StepFailure("\(step.path): the script threw \(error.report)")
            }
        case let .click(name, selector, trusted):
            note("\(trusted ? "trusted" : "synthetic") click \(selector) in tab \(name)")
            if trusted {
                // A user's click: pointer and mouse events, focus, click and activation, all
                // isTrusted, handled as a user gesture.
                let page = try self.page(name, step)
                let outcome = try attempt(step) { try browser.withUserGesture { try page.click(selector) } }
                if !outcome { note("the page cancelled the click") }
            } else {
                try dispatch(step, tab: name, selector: selector, events: [("click", "MouseEvent")], trusted: false)
            }
        case let .key(name, key, selector):
            note("key \(key) in tab \(name)")
            let page = try self.page(name, step)
            try attempt(step) {
                try browser.withUserGesture {
                    if let selector { _ = try page.focus(selector) }
                    _ = try page.pressKey(key)
                }
            }
        case let .type(name, text, selector):
            note("type \(JSONText.string(text)) into \(selector) in tab \(name)")
            let page = try self.page(name, step)
            try attempt(step) { try browser.withUserGesture { try page.type(text, into: selector) } }
        case let .media(name, selector, properties):
            note("media \(selector) in tab \(name): " + properties.map { "\($0.0)=\($0.1)" }.joined(separator: " "))
            let world = try self.world("page", tab: name, step)
            let assignments = properties.map { "element[\(JSONText.string($0.0))] = \($0.1);" }.joined()
            try run(world, "(function () { const element = document.querySelector(\(JSONText.string(selector))); if (!element) throw new Error('no element matches ' + \(JSONText.string(selector))); \(assignments) })()", step)
        case let .viewport(name, width, height):
            note("viewport \(width)x\(height) in tab \(name)")
            let page = try self.page(name, step)
            try attempt(step) { try page.setViewport(Viewport(width: width, height: height)) }
        case let .nativeMessage(application, message):
            // The app acting by itself: answered as the extension's messages are, not recorded as one of them.
            guard let handler = answerNative else { throw StepFailure("\(step.path): no native host is configured for the extension") }
            switch handler(application, message) {
            case let .success(reply): trace.record(.api, at: "native-app", "\(application) handles \(Browser.abbreviate(message)) -> \(Browser.abbreviate(reply))")
            case let .failure(error): throw StepFailure("\(step.path): the native host failed: \(error.message)")
            }
        case let .clickToolbar(name):
            note("click the toolbar button in tab \(name)")
            guard let host else { throw StepFailure("\(step.path): no extension is installed") }
            let tab = try self.tab(name, step)
            _ = try attempt(step) { try browser.clickAction(of: host, in: tab) }
        case let .contextMenu(item, selector, selection, tabName):
            note("context menu item \(item)" + (selector.map { " on \($0)" } ?? "") + " in tab \(tabName)")
            guard let host else { throw StepFailure("\(step.path): no extension is installed") }
            let tab = try self.tab(tabName, step)
            var target = MenuTarget(selectionText: selection)
            if let selector {
                // What is under the pointer: the link around it, a media element's source, a field.
                let world = try self.world("page", tab: tabName, step)
                let probe = "(function (s) { const e = document.querySelector(s); if (!e) throw new Error('no element matches ' + s); const a = e.closest('a[href]'); const m = ['img', 'video', 'audio'].includes(e.localName) ? e : null; return JSON.stringify({ link: a ? a.href : null, src: m ? (m.currentSrc || m.src || null) : null, media: m ? (m.localName === 'img' ? 'image' : m.localName) : null, editable: !!(e.isContentEditable || ['input', 'textarea'].includes(e.localName)) }); })(\(JSONText.string(selector)))"
                let text = try run(world, probe, step).stringValue ?? "{}"
                let fields = JSONText.fields(text)
                let value = { (key: String) in fields[key].flatMap { JSONText.kind($0) == .string ? JSONText.decodeString($0) : nil } }
                target.linkURL = value("link")
                target.srcURL = value("src")
                target.mediaType = value("media")
                target.editable = fields["editable"] == "true"
            }
            try attempt(step) { try browser.clickMenuItem(item, of: host, on: target, in: tab) }
        case let .command(name, tabName):
            note("command \(name) in tab \(tabName)")
            guard let host else { throw StepFailure("\(step.path): no extension is installed") }
            let tab = try self.tab(tabName, step)
            try attempt(step) { try browser.performCommand(name, of: host, in: tab) }
        case let .setPermission(host, permission):
            browser.setSitePermission(permission, for: host)
        case .suspendBackground:
            guard let host else { throw StepFailure("\(step.path): no extension is installed") }
            browser.suspendBackground(of: host)
        case .wakeBackground:
            guard let host else { throw StepFailure("\(step.path): no extension is installed") }
            try attempt(step) { try browser.wakeBackground(of: host) }
        case .runUntilIdle:
            note("run until idle")
            try attempt(step) { try browser.loop.runUntilIdle(limit: scenario.virtualBudget - browser.loop.now) }
        case let .testMessage(message, argument):
            guard let host else { throw StepFailure("\(step.path): no extension is installed") }
            guard scenario.testAPI else { throw StepFailure("\(step.path): the scenario does not give the extension browser.test (\"testAPI\": true)") }
            note("test message \(JSONText.string(message)) \(argument)")
            browser.sendTestMessage(message, argumentJSON: argument, to: host)
        case let .expect(expectation):
            check(expectation, step)
        }
    }

    func attempt<T>(_ step: Scenario.Step, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let failure as StepFailure { throw failure } catch {
            throw StepFailure("\(step.path): \(error)")
        }
    }

    func page(_ name: String, _ step: Scenario.Step) throws -> Page {
        if name == "popup" {
            guard let host, let popup = browser.popup(of: host) else { throw StepFailure("\(step.path): the extension's popup is not open") }
            return popup
        }
        guard let page = try tab(name, step).page else { throw StepFailure("\(step.path): tab '\(name)' shows no page") }
        return page
    }

    func tab(_ name: String, _ step: Scenario.Step) throws -> Tab {
        if ScenarioReader.isOpenedAddress(name) {
            let address = String(name.dropFirst(ScenarioReader.openedPrefix.count))
            if let tab = browser.extensionOpenedTab(address) { return tab }
            let opened = browser.extensionOpenedTabsInOrder.map { "\($0.openedOrder ?? 0): \($0.url)" }
            throw StepFailure("\(step.path): no open tab the extension opened matches '\(address)'"
                + (opened.isEmpty ? " (it has opened none)" : " (open ones: " + opened.joined(separator: ", ") + ")"))
        }
        guard let tab = tabs[name] else { throw StepFailure("\(step.path): no open tab named '\(name)'") }
        return tab
    }

    /// `extension:PATH` as the scenario's extension's URL; any other URL as it is.
    func extensionURL(_ url: String, _ step: Scenario.Step) throws -> String {
        guard url.hasPrefix(Scenario.extensionURLPrefix) else { return url }
        guard let host else { throw StepFailure("\(step.path): '\(url)' names a page of the extension, but no extension is installed") }
        return host.bundle.url(String(url.dropFirst(Scenario.extensionURLPrefix.count)))
    }

    /// The world named `page`, `content` (the extension's content world in the tab), `background`.
    func world(_ name: String, tab tabName: String?, _ step: Scenario.Step) throws -> World {
        if name == "background" {
            guard let world = host?.backgroundWorld else { throw StepFailure("\(step.path): the extension's background is not running") }
            return world
        }
        if name == "popup" {
            guard let host, let popup = browser.popup(of: host) else { throw StepFailure("\(step.path): the extension's popup is not open") }
            return popup.pageWorld
        }
        guard let tabName else { throw StepFailure("\(step.path): '\(name)' needs a tab") }
        guard let page = try tab(tabName, step).page else { throw StepFailure("\(step.path): tab '\(tabName)' shows no page") }
        switch name {
        case "page": return page.pageWorld
        case "content":
            guard let host, let world = page.contentWorlds[host.id] else {
                throw StepFailure("\(step.path): the extension has no content world in tab '\(tabName)' (no permission, or no matching content script)")
            }
            return world
        default:
            throw StepFailure("\(step.path): no \(name) context is open")
        }
    }

    @discardableResult
    func run(_ world: World, _ source: String, _ step: Scenario.Step) throws -> JSValue {
        do { return try world.evaluate(source, sourceURL: "scenario:\(step.path)") } catch let error as JSError {
            throw StepFailure("\(step.path): \(error.description)")
        }
    }

    /// Dispatches input events at the element matched by `selector` (or the focused element, or
    /// the body). Trusted events carry `isTrusted: true` and count as a user gesture.
    private func dispatch(_ step: Scenario.Step, tab name: String, selector: String?, events: [(String, String)], trusted: Bool, key: String? = nil) throws {
        let world = try self.world("page", tab: name, step)
        let target = selector.map { "document.querySelector(\(JSONText.string($0)))" } ?? "(document.activeElement || document.body)"
        let keyInit = key.map { ", key: \(JSONText.string($0))" } ?? ""
        let dispatches = events.map { type, constructor in
            let make = "new (typeof \(constructor) === 'function' ? \(constructor) : Event)(\(JSONText.string(type)), { bubbles: true, cancelable: true\(keyInit) })"
            let withKey = key.map { "Object.defineProperty(event, 'key', { value: \(JSONText.string($0)) });" } ?? ""
            // domino's internal dispatch takes the trusted flag; script-made events stay untrusted.
            return "{ const event = \(make); \(withKey) \(trusted ? "target._dispatchEvent(event, true)" : "target.dispatchEvent(event)"); }"
        }.joined()
        browser.inUserGesture = trusted
        defer { browser.inUserGesture = false }
        try run(world, "(function () { const target = \(target); if (!target) throw new Error('no element matches \(selector ?? "the focused element")'); \(dispatches) })()", step)
    }
}
