import BrowserRuntime
import TestSupport
import Testing
import WebRuntime

/// Callback-style calls and runtime.lastError (issue 22, point 3): WebKit's bindings take a
/// trailing callback on every namespace ([ReturnsPromiseWhenCallbackIsOmitted]) and report a
/// failure through runtime.lastError, logging it when the callback does not read it
/// (WebExtensionAPIRuntimeBase::reportError); Chrome does the same with `{message}`.
@Suite struct CallbackTests {
    /// The background's console lines that mention lastError.
    func unchecked(_ browser: Browser) -> [String] {
        Support.backgroundLogs(browser).filter { $0.contains("Unchecked runtime.lastError") }
    }

    @Test(arguments: Browser.Profile.allCases)
    func aCallbackGetsTheResultAndTheCallReturnsNothing(_ profile: Browser.Profile) throws {
        let (browser, host) = try Support.browser(profile: profile)
        let tab = try browser.openTab(url: "https://news.example/")
        try browser.loop.runUntilIdle()
        let worker = try #require(host.backgroundWorld)
        let result = try Support.await(browser, worker, """
            const returned = chrome.tabs.get(\(tab.id), () => {});
            const seen = await new Promise((resolve) => chrome.tabs.get(\(tab.id), (...args) => resolve(args)));
            const none = await new Promise((resolve) => chrome.storage.local.set({ a: 1 }, (...args) => resolve(args.length)));
            return [String(returned), seen.length, seen[0].id === \(tab.id), seen[0].url, none, String(chrome.runtime.lastError)].join('|');
            """) as? String
        #expect(result == "undefined|1|true|https://news.example/|0|undefined")
        #expect(unchecked(browser).isEmpty)
    }

    @Test func safariSetsAnErrorInTheCallersRealmAndLogsItWhenUnread() throws {
        let (browser, host) = try Support.browser()
        try browser.loop.runUntilIdle()
        let worker = try #require(host.backgroundWorld)
        let read = try Support.await(browser, worker, """
            return await new Promise((resolve) => browser.tabs.get(4242, (...args) => {
              const error = browser.runtime.lastError;
              resolve([args.length, error instanceof Error, error.message].join('|'));
            }));
            """) as? String
        #expect(read == "0|true|Invalid call to tabs.get(). Tab not found.")
        #expect(unchecked(browser).isEmpty, "a callback that reads lastError checks it")
        _ = try Support.await(browser, worker, "await new Promise((resolve) => browser.tabs.get(4243, () => resolve()))")
        try browser.loop.runUntilIdle()
        // console.error(new Error("Unchecked runtime.lastError: …")), as WebKit logs it.
        #expect(unchecked(browser) == ["error: Error: Unchecked runtime.lastError: Invalid call to tabs.get(). Tab not found."])
        #expect(try Support.eval(worker, "String(browser.runtime.lastError)") as? String == "undefined", "cleared after the callback")
    }

    @Test func chromiumSetsAMessageObjectAndLogsItsText() throws {
        let (browser, host) = try Support.browser(profile: .chromium)
        try browser.loop.runUntilIdle()
        let worker = try #require(host.backgroundWorld)
        let read = try Support.await(browser, worker, """
            return await new Promise((resolve) => chrome.tabs.get(4242, () => {
              const error = chrome.runtime.lastError;
              resolve([error instanceof Error, Object.keys(error).join(), error.message].join('|'));
            }));
            """) as? String
        #expect(read == "false|message|No tab with id: 4242.")
        _ = try Support.await(browser, worker, "await new Promise((resolve) => chrome.tabs.get(4243, () => resolve()))")
        #expect(unchecked(browser) == ["error: Unchecked runtime.lastError: No tab with id: 4243."])
    }

    @Test func aBadCallWithACallbackThrowsAndAnErrorInTheCallbackIsReported() throws {
        let (browser, host) = try Support.browser()
        try browser.loop.runUntilIdle()
        let worker = try #require(host.backgroundWorld)
        let thrown = try Support.eval(worker, """
            (() => { try { chrome.tabs.get(() => {}); return 'no throw'; } catch (e) { return e instanceof TypeError ? e.message : 'other'; } })()
            """) as? String
        #expect(thrown == "Expected at least 1 argument for get(), got 0")
        // Without a callback the same call still rejects (a promise-returning method never throws for this).
        let rejected = try Support.await(browser, worker, "try { await chrome.tabs.get(); return 'resolved'; } catch (e) { return e.message }") as? String
        #expect(rejected == "Expected at least 1 argument for get(), got 0")
        _ = try Support.eval(worker, "chrome.storage.local.get('a', () => { throw new Error('in the callback'); })")
        try browser.loop.runUntilIdle()
        let errors = browser.trace.events.filter { $0.channel == .error }.map(\.text)
        #expect(errors.contains { $0.contains("in the callback") })
    }
}
