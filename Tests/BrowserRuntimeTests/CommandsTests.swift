import BrowserRuntime
import Foundation
import TestSupport
import Testing
import WebRuntime

/// `commands` (issue 23, point 1): the manifest's keyboard commands as each browser lists them,
/// and a pressed shortcut firing onCommand with a user gesture (or clicking the action).
@Suite struct CommandsTests {
    func browser(_ profile: Browser.Profile, commands: String = Self.commands) throws -> (Browser, ExtensionHost, World) {
        let browser = try Support.emptyBrowser(profile: profile)
        browser.pageSource = { $0 == "https://a.example/" ? "<p>a</p>" : nil }
        let folder = Support.scratchRoot.appendingPathComponent("commands-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let key = commands.isEmpty ? "" : #", "commands": \#(commands)"#
        try #"{"manifest_version": 3, "name": "Keys", "version": "1", "background": {"service_worker": "w.js"}, "action": {"default_title": "Keys action"}, "optional_permissions": ["tabs"]\#(key)}"#
            .write(to: folder.appendingPathComponent("manifest.json"), atomically: true, encoding: .utf8)
        try """
            globalThis.seen = [];
            chrome.commands?.onCommand.addListener(async (name, tab) => {
              seen.push(name + ' in tab ' + (tab && tab.id));
              seen.push('granted ' + await chrome.permissions.request({ permissions: ['tabs'] }));
            });
            chrome.action.onClicked.addListener((tab) => seen.push('action clicked in tab ' + tab.id));
            """.write(to: folder.appendingPathComponent("w.js"), atomically: true, encoding: .utf8)
        let host = try browser.install(try ExtensionBundle(folder: folder))
        browser.permissionPrompt = { _, _, _ in true }
        try browser.loop.runUntilIdle()
        return (browser, host, try #require(host.backgroundWorld))
    }

    static let commands = """
        {"toggle": {"suggested_key": {"default": "Ctrl+Shift+Y", "mac": "Command+Alt+Z"}, "description": "Toggle"},
         "alpha": {"suggested_key": "Alt+A", "description": "Alpha"},
         "nodesc": {"suggested_key": {"default": "Alt+N"}},
         "bad": {"suggested_key": {"default": "Shift+Hyper+K"}, "description": "Bad"}}
        """

    @Test func safariListsThemInManifestOrderWithItsShortcutText() throws {
        let (browser, _, worker) = try browser(.safari)
        let all = try Support.await(browser, worker, "return JSON.stringify(await browser.commands.getAll())") as? String
        // No description or an unreadable key: left out; a string suggested_key: no shortcut.
        #expect(all == #"[{"description":"Toggle","name":"toggle","shortcut":"Alt+Command+Z"},{"description":"Alpha","name":"alpha","shortcut":""},{"description":"Keys action","name":"_execute_action","shortcut":""}]"#)
    }

    @Test func chromeListsTheActionFirstThenByNameWithMenuText() throws {
        let (browser, _, worker) = try browser(.chromium)
        let all = try Support.await(browser, worker, "return (await chrome.commands.getAll()).map((c) => c.name + ' ' + c.shortcut).join('|')") as? String
        #expect(all == "_execute_action |alpha ⌥A|toggle ⌥⌘Z")
    }

    @Test func safariHasNoCommandsWithoutTheManifestKey() throws {
        let (_, _, worker) = try browser(.safari, commands: "")
        #expect(try Support.eval(worker, "typeof browser.commands") as? String == "undefined")
        let (chrome, _, chromeWorker) = try browser(.chromium, commands: "")
        #expect(try Support.await(chrome, chromeWorker, "return (await chrome.commands.getAll()).map((c) => c.name).join()") as? String == "_execute_action")
    }

    @Test(arguments: [Browser.Profile.safari, .chromium])
    func aPressedShortcutFiresOnCommandWithAGesture(_ profile: Browser.Profile) throws {
        let (browser, host, worker) = try browser(profile)
        let tab = try browser.openTab(url: "https://a.example/")
        try browser.loop.runUntilIdle()
        try browser.performCommand("toggle", of: host)
        try browser.loop.runUntilIdle()
        try browser.performCommand("_execute_action", of: host)
        try browser.loop.runUntilIdle()
        let seen = try Support.eval(worker, "seen.join('|')") as? String
        #expect(seen == "toggle in tab \(tab.id)|granted true|action clicked in tab \(tab.id)")
        #expect(throws: BrowserError.self) { try browser.performCommand("nodesc", of: host) }
    }

    @Test func shortcutsReadAsEachBrowserReadsThem() {
        #expect(Browser.shortcut("Ctrl+Shift+Y", chromium: false) == "Shift+Command+Y")
        #expect(Browser.shortcut("MacCtrl+Shift+Y", chromium: false) == "MacCtrl+Shift+Y")
        #expect(Browser.shortcut("Shift+F5", chromium: false) == "Shift+F5")
        #expect(Browser.shortcut("Y", chromium: false) == nil)
        #expect(Browser.shortcut("Shift+Y", chromium: true) == nil, "Chrome needs Ctrl, Alt or Command")
        #expect(Browser.shortcut("MediaPlayPause", chromium: true) == "MediaPlayPause")
        #expect(Browser.shortcut("Ctrl+MediaStop", chromium: true) == nil)
        #expect(Browser.shortcut("Ctrl+Shift+Comma", chromium: true) == "⇧⌘Comma")
    }
}
