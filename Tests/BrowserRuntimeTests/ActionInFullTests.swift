import BrowserRuntime
import Foundation
import TestSupport
import Testing
import WebRuntime

/// `action` in full (issue 23, point 1): the popup set per tab or globally, enable/disable,
/// the badge's text colour, openPopup, getUserSettings.
@Suite struct ActionInFullTests {
    func browser(_ profile: Browser.Profile) throws -> (Browser, ExtensionHost, World, Tab) {
        let browser = try Support.emptyBrowser(profile: profile)
        browser.pageSource = { $0.hasPrefix("https://") ? "<p>page</p>" : nil }
        let host = try browser.install(try ExtensionBundle(folder: Support.fixtures.appendingPathComponent("extensions/extension-pages")))
        let tab = try browser.openTab(url: "https://a.example/")
        try browser.loop.runUntilIdle()
        return (browser, host, try #require(host.backgroundWorld), tab)
    }

    @Test(arguments: [Browser.Profile.safari, .chromium])
    func thePopupCanBeChangedPerTabOrRemoved(_ profile: Browser.Profile) throws {
        let (browser, host, worker, tab) = try browser(profile)
        let popups = try Support.await(browser, worker, """
            const before = await chrome.action.getPopup({});
            await chrome.action.setPopup({ tabId: \(tab.id), popup: 'report.html' });
            const tabs = await chrome.action.getPopup({ tabId: \(tab.id) });
            return [before, tabs].join('|');
            """) as? String
        #expect(popups == host.bundle.url("popup.html") + "|" + host.bundle.url("report.html"))
        let page = try #require(try browser.clickAction(of: host, in: tab))
        #expect(page.url == host.bundle.url("report.html"))
        browser.closePopup(of: host)
        // No popup: the click goes to action.onClicked.
        _ = try Support.await(browser, worker, "globalThis.clicked = 0; chrome.action.onClicked.addListener(() => clicked++); await chrome.action.setPopup({ popup: '' }); await chrome.action.setPopup({ tabId: \(tab.id), popup: '' })")
        #expect(try browser.clickAction(of: host, in: tab) == nil)
        try browser.loop.runUntilIdle()
        #expect(try Support.eval(worker, "clicked") as? Double == 1)
    }

    @Test func aDisabledButtonDoesNothing() throws {
        let (browser, host, worker, tab) = try browser(.safari)
        let states = try Support.await(browser, worker, """
            await chrome.action.disable(\(tab.id));
            const off = await chrome.action.isEnabled(\(tab.id));
            const elsewhere = await chrome.action.isEnabled();
            return [off, elsewhere].join();
            """) as? String
        #expect(states == "false,true")
        #expect(try browser.clickAction(of: host, in: tab) == nil && browser.popup(of: host) == nil)
        #expect(browser.trace.dump(channels: [.toolbar]).contains("disabled: nothing happens"))
        _ = try Support.await(browser, worker, "await chrome.action.enable(\(tab.id))")
        #expect(try browser.clickAction(of: host, in: tab) != nil)
    }

    @Test func openPopupOpensItOnTheActiveTabAsEachBrowserDoes() throws {
        let (safari, safariHost, safariWorker, _) = try browser(.safari)
        _ = try Support.await(safari, safariWorker, "await chrome.action.openPopup()")
        #expect(safari.popup(of: safariHost) != nil)
        #expect(try Support.await(safari, safariWorker, "try { await chrome.action.openPopup() } catch (e) { return e.message }") as? String
            == "Invalid call to action.openPopup(). Another popup is already open.")
        let (chrome, _, chromeWorker, _) = try browser(.chromium)
        #expect(try Support.await(chrome, chromeWorker, "await chrome.action.setPopup({ popup: '' }); try { await chrome.action.openPopup() } catch (e) { return e.message }") as? String
            == "Extension does not have a popup on the active tab.")
        #expect(try Support.await(chrome, chromeWorker, "return JSON.stringify(await chrome.action.getUserSettings())") as? String == #"{"isOnToolbar":true}"#)
        #expect(try Support.await(chrome, chromeWorker, "await chrome.action.setBadgeTextColor({ color: '#000000' }); return await chrome.action.getBadgeTextColor({})") as? String == "#000000")
    }
}
