import BrowserRuntime
import Foundation
import TestSupport
import Testing
import WebRuntime

/// The rest of tabs, runtime and extension (issue 23, point 1).
@Suite struct TabsRuntimeExtensionTests {
    func make(_ profile: Browser.Profile) throws -> (Browser, ExtensionHost, World, Tab) {
        let browser = try Support.emptyBrowser(profile: profile)
        browser.pageSource = { url in
            url.hasPrefix("https://a.example/") ? "<!DOCTYPE html><html lang='de'><title>A</title><p>a</p></html>" : nil
        }
        let host = try browser.install(try ExtensionBundle(folder: Support.fixtures.appendingPathComponent("extensions/extension-pages")))
        let tab = try browser.openTab(url: "https://a.example/")
        try browser.loop.runUntilIdle()
        return (browser, host, try #require(host.backgroundWorld), tab)
    }

    @Test(arguments: [Browser.Profile.safari, .chromium])
    func tabsCanBeTraversedDuplicatedAndMoved(_ profile: Browser.Profile) throws {
        let (browser, host, worker, tab) = try make(profile)
        try browser.navigate(tab, to: "https://a.example/two")
        try browser.loop.runUntilIdle()
        _ = try Support.await(browser, worker, "await chrome.tabs.goBack(\(tab.id))")
        try browser.loop.runUntilIdle()
        #expect(tab.url == "https://a.example/")
        let copy = try Support.await(browser, worker, "return (await chrome.tabs.duplicate(\(tab.id))).id") as? Double
        try browser.loop.runUntilIdle()
        #expect(browser.tabs.map(\.id) == [tab.id, Int(copy ?? 0)] && browser.tab(Int(copy ?? 0))?.url == "https://a.example/")
        // tabs.move is Chrome's: WebKit's tabs IDL has none.
        if profile == .chromium {
            _ = try Support.await(browser, worker, "await chrome.tabs.move(\(Int(copy ?? 0)), { index: 0 })")
            #expect(browser.tabs.map(\.id) == [Int(copy ?? 0), tab.id])
        } else {
            #expect(try Support.eval(worker, "typeof chrome.tabs.move") as? String == "undefined")
        }
        #expect(try Support.await(browser, worker, "return await chrome.tabs.detectLanguage(\(tab.id))") as? String == "de")
        #expect(try Support.await(browser, worker, "return await chrome.tabs.getZoom(\(tab.id))") as? Double == 1)
        let capture = try Support.await(browser, worker, "try { await chrome.tabs.captureVisibleTab() } catch (e) { return e.message }") as? String
        #expect(capture?.contains("draws no pixels") == true)
        _ = host
    }

    @Test func chromeRefusesToDiscardTheActiveTab() throws {
        let (browser, _, worker, tab) = try make(.chromium)
        #expect(try Support.await(browser, worker, "try { await chrome.tabs.discard(\(tab.id)) } catch (e) { return e.message }") as? String == "Cannot discard tab with id: \(tab.id).")
    }

    @Test func runtimeKeepsTheUninstallURLAndChromeListsItsContexts() throws {
        let (chrome, host, worker, _) = try make(.chromium)
        #expect(try Support.await(chrome, worker, "try { await chrome.runtime.setUninstallURL('ftp://x') } catch (e) { return e.message }") as? String == "Invalid URL: \"ftp://x\".")
        _ = try Support.await(chrome, worker, "await chrome.runtime.setUninstallURL('https://example.com/bye')")
        _ = try chrome.openOptionsPage(of: host)
        try chrome.loop.runUntilIdle()
        let contexts = try Support.await(chrome, worker, "return (await chrome.runtime.getContexts({})).map((c) => c.contextType + ' ' + c.tabId + ' ' + c.documentUrl.split('/').pop()).join('|')") as? String
        #expect(contexts == "BACKGROUND -1 _generated_background_page.html|TAB 2 options.html")
        #expect(try Support.eval(worker, "typeof chrome.runtime.onSuspend.addListener + typeof chrome.runtime.onUpdateAvailable.addListener") as? String == "functionfunction")
        #expect(try Support.await(chrome, worker, "return JSON.stringify(await chrome.runtime.requestUpdateCheck())") as? String == #"{"status":"no_update"}"#)
        let (safari, _, safariWorker, _) = try make(.safari)
        #expect(try Support.eval(safariWorker, "typeof browser.runtime.getContexts + typeof browser.runtime.requestUpdateCheck") as? String == "undefinedundefined")
        _ = safari
    }

    @Test func extensionAnswersItsIncognitoQuestionsAndViews() throws {
        let (browser, host, worker, _) = try make(.safari)
        #expect(try Support.eval(worker, "browser.extension.inIncognitoContext") as? Bool == false)
        #expect(try Support.await(browser, worker, "return await browser.extension.isAllowedIncognitoAccess()") as? Bool == false)
        #expect(try Support.eval(worker, "browser.extension.getURL('x.html') === browser.runtime.getURL('x.html')") as? Bool == true)
        _ = try browser.openPopup(host)
        let options = try browser.openOptionsPage(of: host)
        try browser.loop.runUntilIdle()
        #expect(try Support.eval(worker, "browser.extension.getViews().length + ' ' + browser.extension.getViews({ type: 'tab' })[0].location.pathname") as? String == "1 /options.html",
                "opening a tab closed the popup")
        #expect(try Support.eval(worker, "browser.extension.getViews({ tabId: \(options.id) })[0].document.title") as? String == "Options")
        let (chrome, _, chromeWorker, _) = try make(.chromium)
        #expect(try Support.eval(chromeWorker, "typeof chrome.extension.getURL") as? String == "undefined")
        _ = chrome
    }
}
