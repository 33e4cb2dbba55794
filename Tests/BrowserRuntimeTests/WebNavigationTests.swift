import BrowserRuntime
import TestSupport
import Testing
import WebRuntime

@Suite struct WebNavigationTests {
    static let pages = [
        "https://news.test/": "<!DOCTYPE html><title>n</title><iframe src='https://news.test/inner'></iframe><iframe src='https://tracker.test/x'></iframe>",
        "https://news.test/inner": "<p>inner</p>",
    ]

    func navigations(_ browser: Browser) -> [String] {
        Support.backgroundLogs(browser).filter { $0.hasPrefix("nav ") }
    }

    @Test func eventsFollowEachFrameWithIdsAndParents() throws {
        let (browser, host) = try Support.outlineBrowser(pages: Self.pages)
        let tab = try browser.openTab(url: "https://news.test/")
        try browser.loop.runUntilIdle()
        #expect(navigations(browser) == [
            "nav onBeforeNavigate 1 0 -1 https://news.test/ ",
            "nav onCommitted 1 0 -1 https://news.test/ ",
            // DOMContentLoaded does not wait for frames; load does.
            "nav onDOMContentLoaded 1 0 -1 https://news.test/ ",
            "nav onBeforeNavigate 1 1 0 https://news.test/inner ",
            "nav onCommitted 1 1 0 https://news.test/inner ",
            "nav onDOMContentLoaded 1 1 0 https://news.test/inner ",
            "nav onBeforeNavigate 1 2 0 https://tracker.test/x ",
            "nav onErrorOccurred 1 2 0 https://tracker.test/x net::ERR_BLOCKED_BY_CLIENT",
            "nav onCompleted 1 1 0 https://news.test/inner ",
            "nav onCompleted 1 0 -1 https://news.test/ ",
        ])
        // timeStamp is virtual epoch milliseconds.
        let worker = try #require(host.backgroundWorld)
        try browser.loop.advance(by: .milliseconds(250))
        let timed = try Support.await(browser, worker, """
            const seen = new Promise((resolve) => browser.webNavigation.onCommitted.addListener((d) => resolve(d)));
            browser.tabs.reload(\(tab.id));
            const d = await seen;
            return [d.timeStamp - Date.now(), Object.keys(d).sort().join()].join('|');
            """) as? String
        #expect(timed == "0|frameId,parentFrameId,tabId,timeStamp,url")
    }

    @Test func safariReportsOnlySitesTheExtensionMayAccess() throws {
        for (profile, expected) in [(Browser.Profile.safari, 0), (.chromium, 1)] {
            let (browser, _) = try Support.outlineBrowser(pages: Self.pages, permission: .denied, profile: profile)
            _ = try browser.openTab(url: "https://news.test/inner")
            try browser.loop.runUntilIdle()
            #expect(navigations(browser).filter { $0.hasPrefix("nav onCommitted") }.count == expected, "\(profile)")
        }
    }

    /// Chrome's same-document events: the history API, a fragment, a traversal (forward_back).
    @Test func chromiumReportsSameDocumentChanges() throws {
        for profile in Browser.Profile.allCases {
            let (browser, host) = try Support.outlineBrowser(pages: Self.pages, profile: profile)
            let worker = try #require(host.backgroundWorld)
            _ = try Support.eval(worker, """
                globalThis.sameDocument = [];
                for (const name of ["onHistoryStateUpdated", "onReferenceFragmentUpdated"]) {
                  chrome.webNavigation[name]?.addListener((d) => sameDocument.push(name + " " + d.url + " " + d.transitionQualifiers.join()));
                }
                0
                """)
            let tab = try browser.openTab(url: "https://news.test/inner")
            try browser.loop.runUntilIdle()
            let page = try #require(tab.page)
            _ = try Support.eval(page.pageWorld, "history.pushState({}, '', '/inner/2'); location.hash = 'part'; 0")
            try browser.loop.runUntilIdle()
            try browser.goBack(tab)
            try browser.loop.runUntilIdle()
            let seen = try Support.eval(worker, "sameDocument.join('|')") as? String
            #expect(seen == (profile == .chromium ? [
                "onHistoryStateUpdated https://news.test/inner/2 ", "onReferenceFragmentUpdated https://news.test/inner/2#part ",
                "onReferenceFragmentUpdated https://news.test/inner/2 forward_back",
            ].joined(separator: "|") : ""), "\(profile)")
        }
    }

    @Test func namespaceNeedsThePermission() throws {
        let (browser, host) = try Support.browser()
        let world = try #require(host.backgroundWorld)
        #expect(try Support.eval(world, "typeof browser.webNavigation") as? String == "undefined")
        let (outline, outlineHost) = try Support.outlineBrowser()
        let worker = try #require(outlineHost.backgroundWorld)
        #expect(try Support.eval(worker, "typeof browser.webNavigation.onCompleted.addListener + typeof browser.webNavigation.getFrame") as? String == "functionfunction")
        withExtendedLifetime((browser, outline)) {}
    }

    @Test func frameQueriesWalkTheTreeAndRejectUnknownIds() throws {
        let (browser, host) = try Support.outlineBrowser(pages: Self.pages)
        let tab = try browser.openTab(url: "https://news.test/")
        try browser.loop.runUntilIdle()
        let worker = try #require(host.backgroundWorld)
        let all = try Support.await(browser, worker, """
            const frames = await browser.webNavigation.getAllFrames({ tabId: \(tab.id) });
            return JSON.stringify(frames);
            """) as? String
        #expect(all == #"[{"errorOccurred":false,"frameId":0,"parentFrameId":-1,"url":"https://news.test/"},"# +
            #"{"errorOccurred":false,"frameId":1,"parentFrameId":0,"url":"https://news.test/inner"},"# +
            #"{"errorOccurred":true,"frameId":2,"parentFrameId":0,"url":"https://tracker.test/x"}]"#)
        let one = try Support.await(browser, worker, """
            return JSON.stringify(await browser.webNavigation.getFrame({ tabId: \(tab.id), frameId: 1 }));
            """) as? String
        #expect(one == #"{"errorOccurred":false,"parentFrameId":0,"url":"https://news.test/inner"}"#)
        let errors = try Support.await(browser, worker, """
            const attempt = (details) => browser.webNavigation.getFrame(details).then(() => 'resolved', (e) => e.message);
            return [await attempt({ tabId: 99, frameId: 0 }), await attempt({ tabId: \(tab.id), frameId: 7 }),
                    await attempt({ tabId: \(tab.id) }), await attempt({ tabId: 'x', frameId: 0 })].join('|');
            """) as? String
        #expect(errors == "Invalid call to webNavigation.getFrame(). Tab not found.|"
            + "Invalid call to webNavigation.getFrame(). Frame not found.|"
            + #"Invalid call to webNavigation.getFrame(). The 'details' value is invalid, because it is missing required keys: "frameId".|"#
            + "Invalid call to webNavigation.getFrame(). The 'tabId' value is invalid, because a number is expected.")
    }

    @Test func frameQueriesHideUrlsSafariMayNotShowAndChromiumAnswersNull() throws {
        for profile in [Browser.Profile.safari, .chromium] {
            let (browser, host) = try Support.outlineBrowser(pages: Self.pages, permission: .denied, profile: profile)
            let tab = try browser.openTab(url: "https://news.test/inner")
            try browser.loop.runUntilIdle()
            let worker = try #require(host.backgroundWorld)
            let answer = try Support.await(browser, worker, """
                const top = await chrome.webNavigation.getFrame({ tabId: \(tab.id), frameId: 0 });
                const missing = await chrome.webNavigation.getFrame({ tabId: \(tab.id), frameId: 7 }).catch((e) => 'rejected');
                return [JSON.stringify(top), String(missing)].join('|');
                """) as? String
            let expected = profile == .safari
                ? #"{"errorOccurred":false,"parentFrameId":-1}|rejected"#
                : #"{"errorOccurred":false,"parentFrameId":-1,"url":"https://news.test/inner"}|null"#
            #expect(answer == expected, "\(profile)")
        }
    }
}
