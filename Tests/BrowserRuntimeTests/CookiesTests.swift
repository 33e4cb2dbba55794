import BrowserRuntime
import Foundation
import TestSupport
import Testing
import WebRuntime

/// `cookies` over the browser's jar (issue 23, point 1): what pages set is what extensions read,
/// and the reverse; changes are told to the extensions that may see the site.
@Suite struct CookiesTests {
    @Test(arguments: [Browser.Profile.safari, .chromium])
    func extensionsAndPagesShareTheJar(_ profile: Browser.Profile) throws {
        let browser = try Support.emptyBrowser(profile: profile)
        browser.pageSource = { $0.hasPrefix("https://") ? "<p>page</p>" : nil }
        browser.setSitePermission(.always, for: "*")
        let folder = try Support.extensionFolder("cookies", [
            "manifest.json": #"{"manifest_version": 3, "name": "Jar", "version": "1", "background": {"service_worker": "w.js"}, "permissions": ["cookies"], "host_permissions": ["https://a.example/*"]}"#,
            "w.js": "globalThis.changes = []; chrome.cookies.onChanged.addListener((c) => changes.push(c.cause + ' ' + c.removed + ' ' + c.cookie.name + '=' + c.cookie.value));",
        ])
        let host = try browser.install(try ExtensionBundle(folder: folder))
        let tab = try browser.openTab(url: "https://a.example/")
        let other = try browser.openTab(url: "https://b.example/")
        try browser.loop.runUntilIdle()
        let page = try #require(tab.page)
        _ = try Support.eval(page.pageWorld, "document.cookie = 'theme=dark; path=/'")
        _ = try Support.eval(try #require(other.page).pageWorld, "document.cookie = 'elsewhere=1'")
        let worker = try #require(host.backgroundWorld)
        let read = try Support.await(browser, worker, """
            const one = await chrome.cookies.get({ url: 'https://a.example/', name: 'theme' });
            const all = await chrome.cookies.getAll({});
            await chrome.cookies.set({ url: 'https://a.example/', name: 'sid', value: 'x1', secure: true });
            const removed = await chrome.cookies.remove({ url: 'https://a.example/', name: 'theme' });
            const stores = await chrome.cookies.getAllCookieStores();
            return [one.value + ' ' + one.hostOnly + ' ' + one.session, all.map((c) => c.name).join(), removed.name, stores.map((s) => s.id + ':' + s.tabIds.length).join()].join('|');
            """) as? String
        // b.example's cookie is not the extension's to see.
        #expect(read == "dark true true|theme|theme|0:2")
        #expect(try Support.eval(page.pageWorld, "document.cookie") as? String == "sid=x1")
        try browser.loop.runUntilIdle()
        #expect(try Support.eval(worker, "changes.join('|')") as? String == "explicit false theme=dark|explicit false sid=x1|explicit true theme=dark")
        let refused = try Support.await(browser, worker, "try { await chrome.cookies.set({ url: 'https://b.example/', name: 'n', value: 'v' }); return 'set' } catch (e) { return e.message }") as? String
        #expect(refused == (profile == .chromium ? "No host permissions for cookies at url: \"https://b.example/\"." : "Invalid call to cookies.set(). The extension does not have access to 'https://b.example/'."))
    }
}
