import BrowserRuntime
import Foundation
import TestSupport
import Testing
import WebRuntime

/// scripting.register/get/update/unregisterContentScripts (issue 23, point 1): scripts an
/// extension adds at run time run in pages loaded afterwards, in the world they name.
@Suite struct RegisteredScriptsTests {
    func browser(_ profile: Browser.Profile) throws -> (Browser, ExtensionHost, World) {
        let browser = try Support.emptyBrowser(profile: profile)
        browser.pageSource = { $0.hasPrefix("https://") ? "<title>page</title><p>text</p>" : nil }
        browser.setSitePermission(.always, for: "*")
        let folder = try Support.extensionFolder("registered", [
            "manifest.json": #"{"manifest_version": 3, "name": "Dyn", "version": "1", "background": {"service_worker": "w.js"}, "permissions": ["scripting"], "host_permissions": ["https://*.example/*"]}"#,
            "w.js": "",
            "isolated.js": "document.documentElement.dataset.isolated = typeof chrome.runtime.sendMessage; window.fromIsolated = true;",
            "main.js": "window.fromMain = typeof chrome === 'undefined' || !chrome.runtime ? 'page world' : 'extension world';",
            "s.css": "p { color: rgb(1, 2, 3) }",
        ])
        let host = try browser.install(try ExtensionBundle(folder: folder))
        try browser.loop.runUntilIdle()
        return (browser, host, try #require(host.backgroundWorld))
    }

    @Test(arguments: [Browser.Profile.safari, .chromium])
    func aRegisteredScriptRunsInPagesLoadedAfterwardsInItsWorld(_ profile: Browser.Profile) throws {
        let (browser, _, worker) = try browser(profile)
        _ = try Support.await(browser, worker, """
            await chrome.scripting.registerContentScripts([
              { id: 'iso', matches: ['https://a.example/*'], js: ['isolated.js'], css: ['s.css'], runAt: 'document_end' },
              { id: 'main', matches: ['https://a.example/*'], js: ['main.js'], world: 'MAIN', persistAcrossSessions: false },
            ]);
            """)
        let tab = try browser.openTab(url: "https://a.example/")
        try browser.loop.runUntilIdle()
        let page = try #require(tab.page)
        #expect(try Support.eval(page.pageWorld, "[document.documentElement.dataset.isolated, String(window.fromIsolated), window.fromMain, getComputedStyle(document.querySelector('p')).color].join()") as? String
            == "function,undefined,page world,rgb(1, 2, 3)")
        let listed = try Support.await(browser, worker, "return JSON.stringify(await chrome.scripting.getRegisteredContentScripts({ ids: ['main'] }))") as? String
        #expect(listed == #"[{"allFrames":false,"id":"main","js":["main.js"],"matches":["https://a.example/*"],"persistAcrossSessions":false,"runAt":"document_idle","world":"MAIN"}]"#)
        // Updated to another site, then gone: pages loaded later follow.
        _ = try Support.await(browser, worker, "await chrome.scripting.updateContentScripts([{ id: 'iso', matches: ['https://b.example/*'] }]); await chrome.scripting.unregisterContentScripts({ ids: ['main'] })")
        try browser.reload(tab)
        try browser.loop.runUntilIdle()
        #expect(try Support.eval(try #require(tab.page).pageWorld, "[String(document.documentElement.dataset.isolated), String(window.fromMain)].join()") as? String == "undefined,undefined")
        // A restart keeps what persists.
        try browser.restart()
        let worker2 = try #require(browser.extensions.first?.backgroundWorld)
        #expect(try Support.await(browser, worker2, "return (await chrome.scripting.getRegisteredContentScripts()).map((s) => s.id).join()") as? String == "iso")
    }

    @Test func aManifestContentScriptMayRunInThePagesWorld() throws {
        let browser = try Browser()
        browser.pageSource = { $0 == "https://a.example/" ? "<p>text</p>" : nil }
        browser.setSitePermission(.always, for: "*")
        let folder = try Support.extensionFolder("main-world", [
            "manifest.json": #"{"manifest_version": 3, "name": "Main", "version": "1", "content_scripts": [{"matches": ["https://a.example/*"], "js": ["m.js"], "world": "MAIN"}]}"#,
            "m.js": "window.mainSaw = typeof browser;",
        ])
        _ = try browser.install(try ExtensionBundle(folder: folder))
        let tab = try browser.openTab(url: "https://a.example/")
        try browser.loop.runUntilIdle()
        let page = try #require(tab.page)
        #expect(try Support.eval(page.pageWorld, "window.mainSaw") as? String == "undefined")
        #expect(page.contentWorlds.isEmpty)
        #expect(throws: ManifestError.self) {
            _ = try Manifest.parse(Data(#"{"manifest_version": 3, "name": "M", "version": "1", "content_scripts": [{"matches": ["https://a.example/*"], "js": ["m.js"], "world": "PAGE"}]}"#.utf8), file: "manifest.json", fileExists: { _ in true })
        }
    }

    @Test func eachBrowserRefusesBadScriptsInItsWords() throws {
        let (safari, _, safariWorker) = try browser(.safari)
        let thrown = try Support.eval(safariWorker, """
            [[{ id: '_x', matches: ['https://a.example/*'], js: ['isolated.js'] }], [{ id: 'x', js: ['isolated.js'] }], [{ id: 'x', matches: ['https://a.example/*'], js: ['isolated.js'], world: 'PAGE' }]]
              .map((scripts) => { try { chrome.scripting.registerContentScripts(scripts); return 'no throw'; } catch (e) { return e.message; } }).join('|')
            """) as? String
        #expect(thrown == [
            "Invalid call to scripting.registerContentScripts(). The 'id' value is invalid, because it must not start with '_'.",
            "Invalid call to scripting.registerContentScripts(). The 'matches' value is invalid, because it must specify at least one match pattern for script with ID 'x'.",
            "Invalid call to scripting.registerContentScripts(). The 'world' value is invalid, because it must specify either 'isolated' or 'main'.",
        ].joined(separator: "|"))
        let rejected = try Support.await(safari, safariWorker, """
            const out = [];
            await chrome.scripting.registerContentScripts([{ id: 'a', matches: ['https://a.example/*'], js: ['isolated.js'] }]);
            for (const call of [() => chrome.scripting.registerContentScripts([{ id: 'a', matches: ['https://a.example/*'], js: ['isolated.js'] }]),
                                () => chrome.scripting.registerContentScripts([{ id: 'b', matches: ['https://a.example/*'], js: ['nope.js'] }]),
                                () => chrome.scripting.unregisterContentScripts({ ids: ['zzz'] })]) {
              try { await call(); out.push('ok'); } catch (e) { out.push(e.message); }
            }
            return out.join('|');
            """) as? String
        #expect(rejected == "Invalid call to scripting.registerContentScripts(). Duplicate ID 'a'.|Invalid call to scripting.registerContentScripts(). Invalid resource 'nope.js'.|Invalid call to scripting.unregisterContentScripts(). No script with ID 'zzz'.")

        let (chrome, _, chromeWorker) = try browser(.chromium)
        let chromeErrors = try Support.await(chrome, chromeWorker, """
            const out = [];
            for (const scripts of [[{ id: '', matches: ['https://a.example/*'], js: ['isolated.js'] }], [{ id: 'x', matches: ['https://a.example/*'] }], [{ id: 'x', matches: ['https://a.example/*'], js: ['isolated.js'] }, { id: 'x', matches: ['https://a.example/*'], js: ['isolated.js'] }]]) {
              try { await chrome.scripting.registerContentScripts(scripts); out.push('ok'); } catch (e) { out.push(e.message); }
            }
            return out.join('|');
            """) as? String
        #expect(chromeErrors == "Script's ID must not be empty|Script with ID 'x' must specify at least one js or css to inject.|Duplicate script ID 'x'")
    }
}
