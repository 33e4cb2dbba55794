import BrowserRuntime
import Foundation
import TestSupport
import Testing
import WebRuntime

/// The chromium profile is Chrome (issue 22, point 6): Chrome's extension URLs and ids, `chrome`
/// only, host permissions granted at install; the safari profile keeps Safari's.
@Suite struct ChromiumProfileTests {
    /// A browser with the sample extension and no site permission decided.
    func undecided(_ profile: Browser.Profile) throws -> (Browser, ExtensionHost) {
        var options = Browser.Options()
        options.profile = profile
        let browser = try Browser(options: options)
        browser.pageSource = { url in url.hasPrefix("https://") ? "<!DOCTYPE html><title>t</title><body><p>page</p></body>" : nil }
        let host = try browser.install(try Support.sampleExtension())
        try browser.loop.runUntilIdle()
        return (browser, host)
    }

    @Test func chromeNamesTheExtensionItsOwnWay() throws {
        let (browser, host) = try undecided(.chromium)
        #expect(host.id.count == 32)
        #expect(host.id.allSatisfy { ("a"..."p").contains($0) })
        let worker = try #require(host.backgroundWorld)
        let seen = try Support.eval(worker, "[chrome.runtime.id, chrome.runtime.getURL('/popup.html'), typeof browser, typeof chrome].join('|')") as? String
        #expect(seen == "\(host.id)|chrome-extension://\(host.id)/popup.html|undefined|object")
        // Stable: the same extension gets the same id in another browser.
        let (_, again) = try undecided(.chromium)
        #expect(again.id == host.id)
        _ = browser
    }

    @Test func safariKeepsItsNamesAndBothGlobals() throws {
        let (_, host) = try undecided(.safari)
        #expect(host.id.count == 36 && host.id.contains("-"))
        let worker = try #require(host.backgroundWorld)
        let seen = try Support.eval(worker, "[browser.runtime.getURL('popup.html'), browser === chrome].join('|')") as? String
        #expect(seen == "safari-web-extension://\(host.id)/popup.html|true")
    }

    @Test func chromeGrantsRequestedHostsAtInstallAndSafariAsks() throws {
        for (profile, injected) in [(Browser.Profile.safari, false), (.chromium, true)] {
            let (browser, _) = try undecided(profile)
            let tab = try browser.openTab(url: "https://news.example/")
            try browser.loop.runUntilIdle()
            let page = try #require(tab.page)
            let badge = try Support.eval(page.pageWorld, "document.getElementById('sample-notes-count') ? 'shown' : 'none'") as? String
            #expect(badge == (injected ? "shown" : "none"), "\(profile)")
            #expect(browser.sitePermission(for: "https://news.example/") == profile.defaultSitePermission)
        }
    }

    @Test func extensionResourcesLoadUnderEitherScheme() throws {
        let (browser, host) = try undecided(.chromium)
        let worker = try #require(host.backgroundWorld)
        let text = try Support.await(browser, worker, "return (await (await fetch(chrome.runtime.getURL('manifest.json'))).json()).name") as? String
        #expect(text == "Sample Notes")
    }
}
