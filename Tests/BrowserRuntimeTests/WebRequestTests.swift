import BrowserRuntime
import Foundation
import TestSupport
import Testing
import WebRuntime

/// webRequest as Manifest V3 leaves it (issue 23, point 1): observation of the requests the
/// extension may see, each listener through its filter.
@Suite struct WebRequestTests {
    /// A browser with every site allowed, serving `pages`, and a webRequest + DNR extension whose
    /// service worker is `worker`; the page https://a.example/ opened and loaded. The browser is
    /// returned so that it lives as long as the test.
    func watch(_ profile: Browser.Profile, pages: @escaping (String) -> String?, worker: String) throws -> (Browser, World) {
        let browser = try Support.emptyBrowser(profile: profile)
        browser.pageSource = pages
        browser.setSitePermission(.always, for: "*")
        let folder = try Support.extensionFolder("webrequest", [
            "manifest.json": #"{"manifest_version": 3, "name": "Watch", "version": "1", "background": {"service_worker": "w.js"}, "permissions": ["webRequest", "declarativeNetRequest"], "host_permissions": ["<all_urls>"]}"#,
            "w.js": worker,
        ])
        let host = try browser.install(try ExtensionBundle(folder: folder))
        try browser.loop.runUntilIdle()
        _ = try browser.openTab(url: "https://a.example/")
        try browser.loop.runUntilIdle()
        return (browser, try #require(host.backgroundWorld))
    }

    @Test(arguments: [Browser.Profile.safari, .chromium])
    func listenersSeeTheRequestsTheirFilterMatches(_ profile: Browser.Profile) throws {
        let (browser, worker) = try watch(profile, pages: { $0 == "https://a.example/" ? "<img src='https://cdn.example/pic.png'><img src='https://ads.example/ad.png'><script src='https://a.example/app.js'></script>" : ($0.hasSuffix(".js") ? "" : nil) }, worker: """
            globalThis.seen = [];
            const note = (name) => (d) => seen.push(name + ' ' + d.type + ' ' + d.url + (d.error ? ' ' + d.error : '') + (d.statusCode ? ' ' + d.statusCode : ''));
            chrome.webRequest.onBeforeRequest.addListener(note('before'), { urls: ['<all_urls>'], types: ['image'] });
            chrome.webRequest.onCompleted.addListener(note('completed'), { urls: ['https://cdn.example/*'] });
            chrome.webRequest.onErrorOccurred.addListener(note('error'), { urls: ['<all_urls>'] });
            chrome.declarativeNetRequest.updateDynamicRules({ addRules: [{ id: 1, action: { type: 'block' }, condition: { urlFilter: '||ads.example^' } }] });
            """)
        defer { withExtendedLifetime(browser) {} }
        let seen = (try Support.eval(worker, "seen.join('|')") as? String)?.split(separator: "|").map(String.init) ?? []
        #expect(seen == [
            "before image https://cdn.example/pic.png", "completed image https://cdn.example/pic.png 200",
            "before image https://ads.example/ad.png", "error image https://ads.example/ad.png net::ERR_BLOCKED_BY_CLIENT",
        ], "\(seen)")
        let refused = try Support.eval(worker, "try { chrome.webRequest.onCompleted.addListener(() => {}); 'added' } catch (e) { e.constructor.name }") as? String
        #expect(refused == "TypeError")
    }

    /// Headers reach a listener that asked for them in extraInfoSpec: the request's as built and
    /// as the header rules left them, the response's as served and after the rules; Chrome leaves
    /// out Referer and the like without extraHeaders and refuses blocking listeners.
    @Test(arguments: [Browser.Profile.safari, .chromium])
    func headersReachTheListenersThatAskForThem(_ profile: Browser.Profile) throws {
        let (browser, worker) = try watch(profile, pages: { $0 == "https://a.example/" ? "<img src='https://a.example/pic.png'>" : ($0.hasSuffix(".png") ? "" : nil) }, worker: """
            globalThis.seen = [];
            const names = (list) => list === undefined ? 'none' : list.map((h) => h.name + (h.name.startsWith('X-') ? '=' + h.value : '')).join(',');
            const filter = { urls: ['https://a.example/pic.png'] };
            chrome.webRequest.onBeforeSendHeaders.addListener((d) => seen.push('before ' + names(d.requestHeaders)), filter, ['requestHeaders']);
            chrome.webRequest.onSendHeaders.addListener((d) => seen.push('send ' + names(d.requestHeaders) + ' ' + (d.constructor === Object)), filter, ['requestHeaders', 'extraHeaders']);
            chrome.webRequest.onSendHeaders.addListener((d) => seen.push('plain ' + names(d.requestHeaders)), filter);
            chrome.webRequest.onHeadersReceived.addListener((d) => seen.push('received ' + names(d.responseHeaders)), filter, ['responseHeaders']);
            chrome.webRequest.onCompleted.addListener((d) => seen.push('completed ' + names(d.responseHeaders)), filter, ['responseHeaders']);
            globalThis.blocking = (() => { try { chrome.webRequest.onBeforeRequest.addListener(() => {}, filter, ['blocking']); return 'added'; } catch (e) { return e.message.split('.')[0]; } })();
            chrome.declarativeNetRequest.updateDynamicRules({ addRules: [{ id: 1, priority: 1, condition: { urlFilter: 'pic.png' }, action: { type: 'modifyHeaders',
              requestHeaders: [{ header: 'X-Asked', operation: 'set', value: 'yes' }], responseHeaders: [{ header: 'X-Served', operation: 'set', value: 'changed' }] } }] });
            """)
        defer { withExtendedLifetime(browser) {} }
        let seen = (try Support.eval(worker, "seen.join('|')") as? String)?.split(separator: "|").map(String.init) ?? []
        // Without extraHeaders Chrome leaves Referer out; Safari has no such option, and never
        // applies a rule's response header changes (README, the network model).
        let referer = profile == .chromium ? "" : ",Referer"
        let changed = profile == .chromium ? ",X-Served=changed" : ""
        #expect(seen == [
            "before Accept,User-Agent\(referer)",
            "send Accept,User-Agent,Referer,X-Asked=yes true", "plain none",
            "received Content-Type", "completed Content-Type\(changed)",
        ], "\(seen)")
        #expect(try Support.eval(worker, "blocking") as? String == (profile == .chromium ? "You do not have permission to use blocking webRequest listeners" : "added"))
    }
}
