import BrowserRuntime
import Foundation
import TestSupport
import Testing
import WebRuntime

/// `alarms` (issue 23, point 1) on the virtual clock, as each browser schedules them: Safari
/// clamps to 30 s silently, Chrome keeps the requested time, warns, and fires no sooner than
/// 30 s; both wake a suspended background that listens.
@Suite struct AlarmsTests {
    static let worker = """
        // Every firing is recorded in storage: it outlives the background's unloading.
        chrome.alarms.onAlarm.addListener(async (alarm) => {
          const { fired = [] } = await chrome.storage.local.get('fired');
          await chrome.storage.local.set({ fired: [...fired, alarm.name + '@' + (Date.now() - EPOCH) + ' ' + JSON.stringify(alarm)] });
        });
        """

    func browser(_ profile: Browser.Profile, permissions: String = #"["alarms", "storage"]"#) throws -> (Browser, ExtensionHost) {
        let browser = try Support.emptyBrowser(profile: profile)
        let folder = try Support.extensionFolder("alarms", [
            "manifest.json": #"{"manifest_version": 3, "name": "Alarms", "version": "1", "background": {"service_worker": "w.js"}, "permissions": \#(permissions)}"#,
            "w.js": ("const EPOCH = \(Int(browser.options.session.epoch));\n" + Self.worker),
        ])
        let host = try browser.install(try ExtensionBundle(folder: folder))
        try browser.loop.runUntilIdle()
        return (browser, host)
    }

    func fired(_ host: ExtensionHost) -> [String] {
        (try? JSONSerialization.jsonObject(with: Data(host.localStorageJSON.utf8)) as? [String: Any])?["fired"] as? [String] ?? []
    }

    @Test func safariClampsToTheMinimumAndSaysSoInScheduledTime() throws {
        let (browser, host) = try browser(.safari)
        let worker = try #require(host.backgroundWorld)
        let epoch = browser.options.session.epoch
        let made = try Support.await(browser, worker, """
            const created = await chrome.alarms.create('soon', { delayInMinutes: 0.1 });
            const alarm = await chrome.alarms.get('soon');
            return [String(created), alarm.scheduledTime - \(Int(epoch)), 'periodInMinutes' in alarm].join();
            """) as? String
        #expect(made == "undefined,30000,false")
        try browser.loop.run(until: .seconds(29))
        #expect(fired(host).isEmpty)
        try browser.loop.run(until: .seconds(31))
        #expect(fired(host) == [#"soon@30000 {"name":"soon","scheduledTime":\#(Int(epoch) + 30000)}"#])
        // A one-shot alarm is gone once it fired; clear and clearAll answer nothing in Safari.
        #expect(try Support.await(browser, worker, "return [String(await chrome.alarms.get('soon')), String(await chrome.alarms.clear('x')), String(await chrome.alarms.clearAll())].join()") as? String
            == "undefined,undefined,undefined")
        #expect(browser.trace.dump(channels: [.api]).contains(#"browser api alarm "soon" fires"#))
    }

    @Test func chromeKeepsTheRequestedTimeWarnsAndFiresAfterTheMinimum() throws {
        let (browser, host) = try browser(.chromium)
        let worker = try #require(host.backgroundWorld)
        let epoch = Int(browser.options.session.epoch)
        let scheduled = try Support.await(browser, worker, "await chrome.alarms.create({ delayInMinutes: 0.1 }); return (await chrome.alarms.get()).scheduledTime - \(epoch)") as? Double
        #expect(scheduled == 6000)
        #expect(browser.trace.dump(channels: [.console]).contains(#"Alarm delay is less than the minimum duration of 30 seconds. Alarm "" will fire after the minimum duration."#))
        try browser.loop.run(until: .seconds(31))
        #expect(fired(host) == [#"@30000 {"name":"","scheduledTime":\#(epoch + 6000)}"#])
        #expect(try Support.await(browser, worker, "return [await chrome.alarms.clear('gone'), await chrome.alarms.clearAll()].join()") as? String == "false,true")
    }

    @Test(arguments: [Browser.Profile.safari, .chromium])
    func aRepeatingAlarmFiresEachPeriodUntilCleared(_ profile: Browser.Profile) throws {
        let (browser, host) = try browser(profile)
        let worker = try #require(host.backgroundWorld)
        _ = try Support.await(browser, worker, "await chrome.alarms.create('tick', { periodInMinutes: 1 })")
        try browser.loop.run(until: .seconds(121))
        #expect(fired(host).map { $0.prefix { $0 != " " } } == ["tick@60000", "tick@120000"])
        #expect(fired(host).allSatisfy { $0.contains(#""periodInMinutes":1"#) })
        let all = try Support.await(browser, worker, "return (await chrome.alarms.getAll()).map((a) => a.name + ' ' + (a.scheduledTime - \(Int(browser.options.session.epoch)))).join()") as? String
        #expect(all == "tick 180000")
        _ = try Support.await(browser, worker, "await chrome.alarms.clear('tick')")
        try browser.loop.run(until: .seconds(300))
        #expect(fired(host).count == 2)
    }

    @Test func badArgumentsFailInEachBrowsersWords() throws {
        let (safari, safariHost) = try browser(.safari)
        let safariWorker = try #require(safariHost.backgroundWorld)
        let thrown = try Support.eval(safariWorker, """
            [() => chrome.alarms.create('x', { when: 1, delayInMinutes: 1 }), () => chrome.alarms.create('x', null), () => chrome.alarms.create('x', { when: 'soon' })]
              .map((f) => { try { f(); return 'no throw'; } catch (e) { return e.message; } }).join('|')
            """) as? String
        #expect(thrown == [
            "Invalid call to alarms.create(). The 'info' value is invalid, because it cannot specify both 'delayInMinutes' and 'when'.",
            "Invalid call to alarms.create(). The 'info' value is invalid, because an object is expected, but null was provided.",
            "Invalid call to alarms.create(). The 'info' value is invalid, because 'when' is expected to be a number, but a string was provided.",
        ].joined(separator: "|"))
        // Safari takes an alarm with no time: it fires once, after the minimum.
        _ = try Support.await(safari, safariWorker, "await chrome.alarms.create('bare', {})")
        try safari.loop.run(until: .seconds(31))
        #expect(fired(safariHost).first?.hasPrefix("bare@30000") == true)

        let (chrome, chromeHost) = try browser(.chromium)
        let chromeWorker = try #require(chromeHost.backgroundWorld)
        let rejected = try Support.await(chrome, chromeWorker, """
            const out = [];
            for (const info of [{}, { when: Date.now() + 60000, delayInMinutes: 1 }]) {
              try { await chrome.alarms.create('x', info); out.push('created'); } catch (e) { out.push(e.message); }
            }
            try { chrome.alarms.create('x', 5); } catch (e) { out.push(e.constructor.name + ': ' + e.message); }
            return out.join('|');
            """) as? String
        #expect(rejected == "Must set at least one of when, delayInMinutes, or periodInMinutes.|Cannot set both when and delayInMinutes.|"
            + "TypeError: Error in invocation of alarms.create(optional string name, alarms.AlarmCreateInfo alarmInfo, optional function callback): No matching signature.")
        let limit = try Support.await(chrome, chromeWorker, """
            for (let i = 0; i < 500; i++) await chrome.alarms.create('a' + i, { delayInMinutes: 10 });
            try { await chrome.alarms.create('a0', { delayInMinutes: 10 }); return 'replaced'; } catch (e) { return e.message; }
            """) as? String
        #expect(limit == "An extension cannot have more than 500 active alarms.")
    }

    @Test(arguments: [Browser.Profile.safari, .chromium])
    func anAlarmWakesTheSuspendedBackgroundThatListens(_ profile: Browser.Profile) throws {
        let (browser, host) = try browser(profile)
        _ = try Support.await(browser, try #require(host.backgroundWorld), "await chrome.alarms.create('later', { delayInMinutes: 2 })")
        browser.suspendBackground(of: host)
        #expect(host.isBackgroundSuspended)
        try browser.loop.run(until: .seconds(121))
        #expect(!host.isBackgroundSuspended)
        #expect(fired(host).first?.hasPrefix("later@120000") == true)
    }

    @Test func aRestartKeepsAlarmsInChromeOnly() throws {
        for profile in [Browser.Profile.safari, .chromium] {
            let (browser, host) = try browser(profile)
            _ = try Support.await(browser, try #require(host.backgroundWorld), "await chrome.alarms.create('daily', { delayInMinutes: 5 })")
            try browser.restart()
            try browser.loop.run(until: .seconds(301))
            #expect(fired(host).count == (profile == .chromium ? 1 : 0), "\(profile)")
        }
    }

    @Test func onlyExtensionPagesWithThePermissionHaveIt() throws {
        let (_, without) = try browser(.safari, permissions: #"["storage"]"#)
        #expect(try Support.eval(try #require(without.backgroundWorld), "typeof chrome.alarms") as? String == "undefined")
    }
}
