import BrowserRuntime
import Foundation
import TestSupport
import Testing
import WebRuntime

/// webRequest as Manifest V3 leaves it (issue 23, point 1): observation of the requests the
/// extension may see, each listener through its filter.
@Suite struct WebRequestTests {
    @Test(arguments: [Browser.Profile.safari, .chromium])
    func listenersSeeTheRequestsTheirFilterMatches(_ profile: Browser.Profile) throws {
        let browser = try Support.emptyBrowser(profile: profile)
        browser.pageSource = { $0 == "https://a.example/" ? "<img src='https://cdn.example/pic.png'><img src='https://ads.example/ad.png'><script src='https://a.example/app.js'></script>" : ($0.hasSuffix(".js") ? "" : nil) }
        browser.setSitePermission(.always, for: "*")
        let folder = try Support.extensionFolder("webrequest", [
            "manifest.json": #"{"manifest_version": 3, "name": "Watch", "version": "1", "background": {"service_worker": "w.js"}, "permissions": ["webRequest", "declarativeNetRequest"], "host_permissions": ["<all_urls>"]}"#,
            "w.js": """
            globalThis.seen = [];
            const note = (name) => (d) => seen.push(name + ' ' + d.type + ' ' + d.url + (d.error ? ' ' + d.error : '') + (d.statusCode ? ' ' + d.statusCode : ''));
            chrome.webRequest.onBeforeRequest.addListener(note('before'), { urls: ['<all_urls>'], types: ['image'] });
            chrome.webRequest.onCompleted.addListener(note('completed'), { urls: ['https://cdn.example/*'] });
            chrome.webRequest.onErrorOccurred.addListener(note('error'), { urls: ['<all_urls>'] });
            chrome.declarativeNetRequest.updateDynamicRules({ addRules: [{ id: 1, action: { type: 'block' }, condition: { urlFilter: '||ads.example^' } }] });
            """,
        ])
        let host = try browser.install(try ExtensionBundle(folder: folder))
        try browser.loop.runUntilIdle()
        _ = try browser.openTab(url: "https://a.example/")
        try browser.loop.runUntilIdle()
        let worker = try #require(host.backgroundWorld)
        let seen = (try Support.eval(worker, "seen.join('|')") as? String)?.split(separator: "|").map(String.init) ?? []
        #expect(seen == [
            "before image https://cdn.example/pic.png", "completed image https://cdn.example/pic.png 200",
            "before image https://ads.example/ad.png", "error image https://ads.example/ad.png net::ERR_BLOCKED_BY_CLIENT",
        ], "\(seen)")
        let refused = try Support.eval(worker, "try { chrome.webRequest.onCompleted.addListener(() => {}); 'added' } catch (e) { e.constructor.name }") as? String
        #expect(refused == "TypeError")
    }
}
