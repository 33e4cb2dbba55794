import BrowserRuntime
import TestSupport
import Testing
import WebRuntime

@Suite struct PopupTests {
    @Test func thePopupIsAPrivilegedPageOfItsOwn() throws {
        let (browser, host) = try Support.outlineBrowser(pages: ["https://news.test/": "<p>top</p>"])
        let tab = try browser.openTab(url: "https://news.test/")
        try browser.loop.runUntilIdle()
        let popup = try browser.openPopup(host)
        try browser.loop.runUntilIdle()
        #expect(popup.url == "safari-web-extension://\(host.id)/popup.html")
        #expect(browser.popup(of: host) === popup)
        // popup.js came from the bundle, asked the tab's top frame through tabs.sendMessage.
        #expect(Support.logs(popup) == ["popup for tab \(tab.id) https://news.test/", "popup status https://news.test/ blue"])
        #expect(browser.trace.dump(channels: [.console]).contains("popup console log: popup status"))
        #expect(try Support.eval(popup.pageWorld, "typeof browser.tabs.query + typeof browser.storage.session.get") as? String == "functionfunction")
        // Messages from the popup reach the background, with no tab in the sender.
        let ports = try Support.await(browser, popup.pageWorld, "return (await browser.runtime.sendMessage({ type: 'ports' })).portsSeen") as? Double
        #expect(ports == 1)
        browser.closePopup(of: host)
        #expect(popup.isClosed && browser.popup(of: host) == nil)
    }

    @Test func windowCloseDismissesThePopupAfterTheScript() throws {
        let (browser, host) = try Support.outlineBrowser(pages: ["https://news.test/": "<p>top</p>"])
        _ = try browser.openTab(url: "https://news.test/")
        try browser.loop.runUntilIdle()
        let popup = try browser.openPopup(host)
        try browser.loop.runUntilIdle()
        // The script that calls close() runs to its end; the popup closes in a later task.
        let after = try Support.eval(popup.pageWorld, "window.close(); 'still running'") as? String
        #expect(after == "still running")
        #expect(browser.popup(of: host) === popup)
        try browser.loop.runUntilIdle()
        #expect(popup.isClosed && browser.popup(of: host) == nil)
        #expect(browser.trace.dump(channels: [.navigation]).contains("popup navigation closed"))
    }

    @Test func clickingGrantsActiveTabUntilTheSiteChanges() throws {
        let (browser, host) = try Support.outlineBrowser(pages: ["https://news.test/": "<p>top</p>"], permission: .denied)
        let tab = try browser.openTab(url: "https://news.test/")
        try browser.loop.runUntilIdle()
        let worker = try #require(host.backgroundWorld)
        let query = "return (await browser.tabs.get(\(tab.id))).url ?? 'hidden'"
        #expect(try Support.await(browser, worker, query) as? String == "hidden")
        try browser.openPopup(host)
        try browser.loop.runUntilIdle()
        #expect(browser.activeTabGrants == [tab.id])
        #expect(try Support.await(browser, worker, query) as? String == "https://news.test/")
        try browser.navigate(tab, to: "https://news.test/same-site")
        #expect(browser.activeTabGrants == [tab.id])
        try browser.navigate(tab, to: "https://other.test/")
        #expect(browser.activeTabGrants.isEmpty)
        #expect(try Support.await(browser, worker, query) as? String == "hidden")
    }

    @Test func getMatchedRulesIsExemptFromTheQuotaWhileTheClickLasts() throws {
        let (browser, host) = try Support.outlineBrowser(pages: ["https://news.test/": "<p>top</p>"], profile: .chromium)
        let tab = try browser.openTab(url: "https://news.test/")
        try browser.loop.runUntilIdle()
        let calls = """
            let ok = 0, error = "";
            for (let i = 0; i < 25; i++) {
              try { await chrome.declarativeNetRequest.getMatchedRules({ tabId: \(tab.id) }); ok++; } catch (e) { error = e.message; }
            }
            return ok + " " + error;
            """
        let worker = try #require(host.backgroundWorld)
        // Without activeTab (no click yet) the call is refused outright.
        #expect(try Support.await(browser, worker, "try { await chrome.declarativeNetRequest.getMatchedRules({ tabId: \(tab.id) }); } catch (e) { return e.message }") as? String
                == "The extension must have the declarativeNetRequestFeedback permission or have activeTab granted for the specified tab ID in order to call this function.")
        let popup = try browser.openPopup(host)
        #expect(try Support.await(browser, popup.pageWorld, calls) as? String == "25 ")
        // The background has no activation: Chromium's quota applies (20 per 10 minutes).
        #expect(try Support.await(browser, worker, calls) as? String == "20 This request exceeds the MAX_GETMATCHEDRULES_CALLS_PER_INTERVAL quota.")
        // Past the 5 s of transient activation, the popup is held to the quota too.
        try browser.loop.advance(by: .seconds(6))
        #expect(try Support.await(browser, popup.pageWorld, calls) as? String == "0 This request exceeds the MAX_GETMATCHEDRULES_CALLS_PER_INTERVAL quota.")
        // A scenario's trusted input exempts whatever runs while it is handled.
        let inGesture = browser.withUserGesture { browser.inUserGesture }
        #expect(inGesture && !browser.inUserGesture)
    }

    @Test func errorsNameWhatIsMissing() throws {
        let (browser, host) = try Support.browser()
        #expect(throws: BrowserError.self) { try browser.openPopup(host) }
        do {
            try browser.openPopup(host)
            Issue.record("openPopup without a popup did not throw")
        } catch let error as BrowserError {
            #expect(error.message == "'Sample Notes' has no popup: its manifest sets no action.default_popup")
        }
        let (outline, outlineHost) = try Support.outlineBrowser()
        do {
            try outline.openPopup(outlineHost)
            Issue.record("openPopup without a tab did not throw")
        } catch let error as BrowserError {
            #expect(error.message == "no tab to open the popup of 'Frame Outline' on: open a tab first")
        }
        do {
            _ = try browser.clickAction(of: host)
            Issue.record("clickAction without a tab did not throw")
        } catch let error as BrowserError {
            #expect(error.message == "no tab to click 'Sample Notes' in: open a tab first")
        }
    }

    @Test func aClickWithoutPopupFiresActionOnClicked() throws {
        let (browser, host) = try Support.browser()
        let tab = try browser.openTab(url: "https://news.example/")
        try browser.loop.runUntilIdle()
        let worker = try #require(host.backgroundWorld)
        try worker.evaluate("browser.action.onClicked.addListener((tab) => console.log('clicked on', tab.id, tab.url));", sourceURL: "test")
        #expect(try browser.clickAction(of: host) == nil)
        // The event reaches the background as a task of its own, not inside the click.
        #expect(Support.backgroundLogs(browser).last != "clicked on \(tab.id) https://news.example/")
        try browser.loop.run(until: browser.loop.now)
        #expect(Support.backgroundLogs(browser).last == "clicked on \(tab.id) https://news.example/")
    }
}
