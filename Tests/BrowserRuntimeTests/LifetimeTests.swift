import BrowserRuntime
import TestSupport
import Testing
import WebRuntime

@Suite struct LifetimeTests {
    @Test func restartKeepsWhatABrowserKeepsOnDisk() throws {
        var options = Browser.Options()
        options.profile = .safari
        let browser = try Browser(options: options)
        browser.setSitePermission(.always, for: "*")
        browser.setSitePermission(.once, for: "once.test")
        browser.pageSource = { _ in "<p>page</p>" }
        let host = try browser.install(try ExtensionBundle(folder: Support.fixtures.appendingPathComponent("extensions/sample-blocker")))
        try browser.loop.runUntilIdle()
        let tab = try browser.openTab(url: "https://news.test/")
        let worker = try #require(host.backgroundWorld)
        _ = try Support.await(browser, worker, """
            var inMemory = 1;
            await browser.storage.local.set({ kept: 1 });
            await browser.storage.session.set({ lost: 1 });
            await blockHost("ads.test");
            await browser.declarativeNetRequest.updateSessionRules({ addRules: [{ id: 9, action: { type: "block" }, condition: { urlFilter: "session" } }] });
            await browser.declarativeNetRequest.updateEnabledRulesets({ enableRulesetIds: ["extra"] });
            await browser.action.setBadgeText({ text: "7" });
            """)
        try browser.restart()
        #expect(browser.tabs.isEmpty)
        #expect(tab.page == nil)
        // "Granted once" lapses; the site falls back to the default ("*" here).
        #expect(browser.sitePermission(for: "https://once.test/") == .always)
        try browser.loop.runUntilIdle()
        let restarted = try #require(host.backgroundWorld)
        #expect(restarted !== worker)
        let state = try Support.await(browser, restarted, """
            const dnr = browser.declarativeNetRequest;
            return JSON.stringify({
              memory: typeof inMemory,
              local: await browser.storage.local.get(),
              session: await browser.storage.session.get(),
              dynamic: (await dnr.getDynamicRules()).map((r) => r.id),
              sessionRules: (await dnr.getSessionRules()).length,
              enabled: await dnr.getEnabledRulesets(),
              badge: await browser.action.getBadgeText({}),
            });
            """) as? String
        #expect(state == #"{"memory":"undefined","local":{"kept":1},"session":{},"dynamic":[1],"sessionRules":0,"enabled":["trackers","extra"],"badge":""}"#)
        #expect(browser.trace.dump(channels: [.navigation]).contains("browser navigation restart"))
    }

    @Test func onStartupFiresAfterRestartAndTabsCanBeReopened() throws {
        let (browser, _) = try Support.outlineBrowser()
        _ = try browser.openTab(url: "https://news.test/inner.html")
        try browser.loop.runUntilIdle()
        #expect(!Support.backgroundLogs(browser).contains("startup"))
        try browser.restart(reopeningTabs: true)
        try browser.loop.runUntilIdle()
        #expect(Support.backgroundLogs(browser).filter { $0 == "startup" }.count == 1)
        #expect(browser.tabs.map(\.url) == ["https://news.test/inner.html"])
        #expect(browser.tabs.first?.id == 2)
    }

    @Test func aRuntimeMessageWakesASuspendedBackground() throws {
        let (browser, host) = try Support.browser()
        browser.suspendBackground(of: host)
        #expect(host.isBackgroundSuspended)
        // Sample Notes' content script messages the background on every visit.
        let tab = try browser.openTab(url: "https://news.example/")
        try browser.loop.runUntilIdle()
        #expect(!host.isBackgroundSuspended)
        #expect(Support.logs(try #require(tab.page)).contains("visit 1 tab 1 frame 0"))
        #expect(browser.trace.dump(channels: [.navigation]).contains("background navigation started (woken by runtime.onMessage)"))
    }

    @Test func aStorageChangeWakesABackgroundThatListensForIt() throws {
        let (browser, host) = try Support.outlineBrowser()
        let tab = try browser.openTab(url: "https://news.test/inner.html")
        try browser.loop.runUntilIdle()
        browser.suspendBackground(of: host)
        let content = try #require(try tab.page?.contentWorld(for: host.id))
        _ = try Support.await(browser, content, "await browser.storage.local.set({ note: 'x' })")
        try browser.loop.runUntilIdle()
        #expect(!host.isBackgroundSuspended)
        #expect(Support.backgroundLogs(browser).last == "storage local note")
        #expect(browser.trace.dump(channels: [.navigation]).contains("started (woken by storage.onChanged)"))
    }

    @Test func eventsNobodyListenedToLeaveTheBackgroundAsleep() throws {
        // Sample Notes' background has no storage.onChanged listener.
        let (browser, host) = try Support.browser()
        let tab = try browser.openTab(url: "https://news.example/")
        try browser.loop.runUntilIdle()
        browser.suspendBackground(of: host)
        let content = try #require(try tab.page?.contentWorld(for: host.id))
        _ = try Support.await(browser, content, "await browser.storage.local.set({ note: 'x' })")
        try browser.loop.runUntilIdle()
        #expect(host.isBackgroundSuspended)
        // A message is something it listened to: that wakes it.
        let pong = try Support.await(browser, content, "return (await browser.runtime.sendMessage({ type: 'ping' })).pong") as? Bool
        #expect(pong == true)
        #expect(!host.isBackgroundSuspended)
    }
}

@Suite struct IdleUnloadTests {
    /// WebKit keeps background content with open ports loaded until 2 minutes after the last
    /// message the background itself posted on one (WebExtensionContextCocoa.mm); the check runs
    /// on the 30 s idle timer.
    @Test func anOpenPortTheBackgroundPostedOnKeepsItForTwoMinutes() throws {
        let (browser, host) = try Support.outlineBrowser(pages: ["https://news.test/": "<p>top</p>"])
        browser.unloadsIdleBackgrounds = true
        _ = try browser.openTab(url: "https://news.test/")
        try browser.loop.run(until: .seconds(1))
        let posted = try #require(browser.trace.select(channels: [.api]).last { $0.location == "background" && $0.text.contains("postMessage") })
        try browser.loop.run(until: posted.time + .seconds(119))
        #expect(host.backgroundWorld != nil)
        #expect(!browser.trace.dump(channels: [.navigation]).contains("unloading"))
        try browser.loop.run(until: posted.time + .seconds(151))
        #expect(host.backgroundWorld == nil)
        let unload = try #require(browser.trace.select(channels: [.navigation]).first { $0.text.contains("unloading") })
        #expect(unload.time >= posted.time + .seconds(120))
        #expect(unload.time <= posted.time + .seconds(150))
    }

    @Test func withoutPortsItUnloadsThirtySecondsAfterTheLastEventAndNotWhenOff() throws {
        for on in [true, false] {
            let (browser, host) = try Support.browser()
            browser.unloadsIdleBackgrounds = on
            let tab = try browser.openTab(url: "https://news.example/")
            try browser.loop.run(until: .seconds(5))
            let content = try #require(try tab.page?.contentWorld(for: host.id))
            _ = try Support.await(browser, content, "await browser.runtime.sendMessage({ type: 'ping' });")
            let pinged = browser.loop.now
            try browser.loop.run(until: pinged + .seconds(29))
            #expect(host.backgroundWorld != nil)
            try browser.loop.run(until: pinged + .seconds(31))
            #expect((host.backgroundWorld == nil) == on)
        }
    }
}
