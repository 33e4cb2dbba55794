import BrowserRuntime
import Foundation
import TestSupport
import Testing
import WebRuntime

/// runtime.reload(): the extension is unloaded and loaded again (issue 23, point 1).
@Suite struct RuntimeReloadTests {
    @Test(arguments: Browser.Profile.allCases)
    func reloadStartsTheBackgroundAfreshAndKeepsWhatOutlivesALoad(profile: Browser.Profile) throws {
        let folder = try Support.extensionFolder("reload-sample", [
            "manifest.json": #"{"manifest_version": 3, "name": "Reload", "version": "2.1", "background": {"service_worker": "w.js"}, "permissions": ["storage"]}"#,
            "w.js": """
                globalThis.generation = (globalThis.generation || 0) + 1;
                chrome.runtime.onInstalled.addListener((details) => {
                  chrome.storage.local.get("installs").then(({ installs = [] }) => chrome.storage.local.set({ installs: installs.concat(details.reason + " " + (details.previousVersion || "")) }));
                });
                """,
            "page.html": "<!DOCTYPE html><title>page</title>",
        ])
        let browser = try Support.emptyBrowser(profile: profile)
        let host = try browser.install(try ExtensionBundle(folder: folder))
        try browser.loop.runUntilIdle()
        let first = try #require(host.backgroundWorld)
        _ = try Support.await(browser, first, "await chrome.storage.session.set({ s: 1 }); globalThis.marker = 'old'; return 0;")
        let page = try browser.openTab(url: host.bundle.url("page.html"))
        try browser.loop.runUntilIdle()
        #expect(browser.tabs.contains { $0 === page })
        _ = try Support.eval(first, "chrome.runtime.reload(); 0")
        try browser.loop.runUntilIdle()
        let second = try #require(host.backgroundWorld)
        #expect(try Support.eval(second, "typeof globalThis.marker") as? String == "undefined")
        #expect(!browser.tabs.contains { $0 === page })
        let state = try Support.await(browser, second, """
            const session = await chrome.storage.session.get(null);
            const { installs } = await chrome.storage.local.get("installs");
            return JSON.stringify({ session, installs });
            """) as? String
        #expect(state == (profile == .chromium ? #"{"session":{},"installs":["install ","update 2.1"]}"# : #"{"session":{},"installs":["install "]}"#))
        #expect(browser.trace.dump(channels: [.navigation]).contains("reload Reload"))
    }

    @Test func contentScriptsHaveNoReload() throws {
        let folder = try Support.extensionFolder("reload-content", [
            "manifest.json": #"{"manifest_version": 3, "name": "R", "version": "1", "content_scripts": [{"matches": ["https://*/*"], "js": ["c.js"]}]}"#,
            "c.js": "document.documentElement.dataset.reload = typeof chrome.runtime.reload;",
        ])
        let (browser, _) = try Support.browser(with: try ExtensionBundle(folder: folder), pages: [:], permission: .always, profile: .safari)
        let tab = try browser.openTab(url: "https://site.example/")
        try browser.loop.runUntilIdle()
        let page = try #require(tab.page)
        #expect(try Support.eval(page.pageWorld, "document.documentElement.dataset.reload") as? String == "undefined")
    }
}
