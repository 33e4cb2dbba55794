import BrowserRuntime
import Foundation
import TestSupport
import Testing
import WebRuntime

/// tabs zoom (kept and reported, nothing drawn) and tabs.onMoved, in each browser's way.
@Suite struct TabZoomTests {
    @Test(arguments: Browser.Profile.allCases)
    func zoomIsKeptPerTabWithEachBrowsersRangeAndEvents(profile: Browser.Profile) throws {
        let (browser, host) = try Support.browser(profile: profile)
        let tab = try browser.openTab(url: "https://news.example/")
        _ = try browser.openTab(url: "https://other.example/")
        try browser.loop.runUntilIdle()
        let worker = try #require(host.backgroundWorld)
        let result = try Support.await(browser, worker, """
            const events = [];
            chrome.tabs.onZoomChange?.addListener((c) => events.push(c.oldZoomFactor + "->" + c.newZoomFactor + " " + c.zoomSettings.mode));
            chrome.tabs.onMoved.addListener((id, info) => events.push("moved " + id + " " + info.fromIndex + "->" + info.toIndex));
            await chrome.tabs.setZoom(\(tab.id), 1.5);
            const zoom = await chrome.tabs.getZoom(\(tab.id));
            const errors = [];
            for (const factor of [9, -1]) { try { await chrome.tabs.setZoom(\(tab.id), factor); errors.push("ok"); } catch (e) { errors.push(e.message); } }
            // tabs.move is Chrome's (WebKit's tabs IDL has none).
            if (chrome.tabs.move) await chrome.tabs.move(\(tab.id), { index: -1 });
            const settings = chrome.tabs.getZoomSettings ? await chrome.tabs.getZoomSettings(\(tab.id)) : null;
            return JSON.stringify({ zoom, errors, events, settings });
            """) as? String
        if profile == .chromium {
            #expect(result == #"{"zoom":1.5,"errors":["Zoom value is out of range.","Zoom value is out of range."],"events":["1->1.5 automatic","moved 1 0->1"],"settings":{"defaultZoomFactor":1,"mode":"automatic","scope":"per-origin"}}"#)
        } else {
            #expect(result == #"{"zoom":1.5,"errors":["ok","Invalid call to tabs.setZoom(). The 'zoomFactor' value is invalid, because it must be greater than 0."],"events":[],"settings":null}"#)
        }
        #expect(browser.trace.dump(channels: [.navigation]).contains("zoom 1.5"))
    }

    @Test func chromeRefusesZoomInDisabledModeAndPerOriginOutsideAutomatic() throws {
        let (browser, host) = try Support.browser(profile: .chromium)
        let tab = try browser.openTab(url: "https://news.example/")
        try browser.loop.runUntilIdle()
        let worker = try #require(host.backgroundWorld)
        let result = try Support.await(browser, worker, """
            const out = [];
            try { await chrome.tabs.setZoomSettings(\(tab.id), { mode: "manual", scope: "per-origin" }); } catch (e) { out.push(e.message); }
            await chrome.tabs.setZoomSettings(\(tab.id), { mode: "disabled" });
            try { await chrome.tabs.setZoom(\(tab.id), 2); } catch (e) { out.push(e.message); }
            out.push((await chrome.tabs.getZoomSettings(\(tab.id))).scope);
            return out.join("|");
            """) as? String
        #expect(result == #"Can only set scope to "per-origin" in "automatic" mode.|Cannot change zoom: zoom is disabled for this tab.|per-tab"#)
    }
}
