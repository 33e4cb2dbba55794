import BrowserRuntime
import Foundation
import JSKit
import TestSupport
import Testing
import WebRuntime

@Suite struct NetworkTests {
    static let page = """
        <!DOCTYPE html><html><head>
        <link rel="stylesheet" href="https://cdn.example/site.css">
        <style>.hero { background: url("https://tracker.example/pixel.gif"); }</style>
        </head><body>
        <img id="ad" src="https://tracker.example/banner.png" onerror="console.log('img error')" onload="console.log('img load')">
        <img id="ok" src="https://tracker.example/allowed/logo.png" onload="console.log('allowed load')">
        <iframe src="https://tracker.example/frame.html"></iframe>
        <script src="https://tracker.example/t.js"></script>
        <script src="https://cdn.example/app.js"></script>
        <script>
          fetch("https://tracker.example/collect", { method: "POST" }).then(() => console.log("fetch ok"), (e) => console.log("fetch failed:", e.name, e.message));
          fetch("/data.json").then((r) => r.json()).then((d) => console.log("data", d.n));
        </script>
        </body></html>
        """

    func browser(profile: Browser.Profile) throws -> (Browser, ExtensionHost) {
        var options = Browser.Options()
        options.profile = profile
        let browser = try Browser(options: options)
        browser.pageSource = { url in
            switch url {
            case "https://news.example/": return Self.page
            case "https://cdn.example/app.js": return "console.log('app.js ran')"
            case "https://tracker.example/t.js": return "console.log('tracker ran')"
            case "https://news.example/data.json": return #"{"n": 7}"#
            case "https://tracker.example/": return "<title>tracker home</title>"
            default: return nil
            }
        }
        let host = try browser.install(try ExtensionBundle(folder: Support.fixtures.appendingPathComponent("extensions/sample-blocker")))
        try browser.loop.runUntilIdle()
        return (browser, host)
    }

    @Test(arguments: Browser.Profile.allCases)
    func pageRequestsAreDecidedByTheRules(profile: Browser.Profile) throws {
        let (browser, _) = try browser(profile: profile)
        let tab = try browser.openTab(url: "https://news.example/")
        try browser.loop.runUntilIdle()
        let logs = Support.logs(try #require(tab.page))
        #expect(logs.contains("app.js ran"))
        #expect(!logs.contains("tracker ran"))
        #expect(logs.contains("img error"))
        #expect(logs.contains("allowed load"))
        #expect(logs.contains("fetch failed: TypeError Load failed"))
        #expect(logs.contains("data 7"))
        let network = browser.trace.dump(channels: [.network])
        #expect(network.contains("GET https://news.example/ main_frame allowed"))
        #expect(network.contains("GET https://tracker.example/t.js script blocked by trackers#1"))
        // Chromium attributes the allow to its rule; in Safari the translated allow rule is an
        // ignore-previous-rules action, which leaves no action (and no rule) behind.
        #expect(network.contains("GET https://tracker.example/allowed/logo.png image allowed" + (profile == .chromium ? " by trackers#2\n" : "\n")))
        #expect(network.contains("GET https://tracker.example/pixel.gif image blocked by trackers#1"))
        #expect(network.contains("GET https://tracker.example/frame.html sub_frame blocked by trackers#1"))
        #expect(network.contains("POST https://tracker.example/collect xmlhttprequest blocked by trackers#1"))
        #expect(network.contains("GET https://cdn.example/site.css stylesheet allowed"))
    }

    @Test func navigationToABlockedHostIsStillAllowed() throws {
        let (browser, _) = try browser(profile: .safari)
        let tab = try browser.openTab(url: "https://tracker.example/")
        #expect(tab.title == "tracker home")
    }

    @Test func dynamicRulesAreAtomicAndValidated() throws {
        let (browser, host) = try browser(profile: .safari)
        let worker = try #require(host.backgroundWorld)
        #expect(try Support.eval(worker, "typeof document") as? String == "undefined")
        let result = try Support.await(browser, worker, """
            const dnr = browser.declarativeNetRequest;
            const first = await blockHost("ads.example");
            const errors = [];
            try { await dnr.updateDynamicRules({ addRules: [{ id: 9, action: { type: "block" }, condition: { urlFilter: "||*" } }, { id: 10, action: { type: "block" }, condition: { urlFilter: "x" } }] }); }
            catch (e) { errors.push(e.message); }
            try { await dnr.updateDynamicRules({ addRules: [{ id: first, action: { type: "block" }, condition: { urlFilter: "y" } }] }); }
            catch (e) { errors.push(e.message); }
            await dnr.updateDynamicRules({ removeRuleIds: [404] });
            const ids = (await dnr.getDynamicRules()).map((r) => r.id);
            const regex = await dnr.isRegexSupported({ regex: "(a" });
            return JSON.stringify({ first, errors, ids, regex, enabled: await dnr.getEnabledRulesets() });
            """) as? String
        let object = try #require(try JSONSerialization.jsonObject(with: Data((result ?? "").utf8)) as? [String: Any])
        #expect(object["first"] as? Int == 1)
        #expect(object["ids"] as? [Int] == [1])
        let errors = object["errors"] as? [String] ?? []
        #expect(errors.count == 2)
        #expect(errors.first?.contains("Rule with id 9") == true)
        #expect(errors.last == "Rule with id 1 does not have a unique ID.")
        #expect((object["regex"] as? [String: Any])?["reason"] as? String == "syntaxError")
        #expect(object["enabled"] as? [String] == ["trackers"])
        #expect(host.dynamicRulesJSON.contains("\"requestDomains\":[\"ads.example\"]"))
    }

    @Test func getMatchedRulesFollowsTheProfile() throws {
        for profile in Browser.Profile.allCases {
            let (browser, host) = try browser(profile: profile)
            let tab = try browser.openTab(url: "https://news.example/")
            try browser.loop.runUntilIdle()
            let worker = try #require(host.backgroundWorld)
            let info = try Support.await(browser, worker, "return JSON.stringify((await chrome.declarativeNetRequest.getMatchedRules({ tabId: \(tab.id) })).rulesMatchedInfo[0])") as? String ?? ""
            if profile == .chromium {
                #expect(info.contains(#""rule":{"ruleId":1,"rulesetId":"trackers"}"#), "\(info)")
            } else {
                #expect(info.contains(#""request":{"url":"https://tracker.example/pixel.gif"}"#) || info.contains(#""request":{"url":"#), "\(info)")
                #expect(!info.contains("ruleId"))
            }
            // minTimeStamp: Chromium inclusive, Safari exclusive.
            let epochNow = browser.options.session.epoch
            let count = try Support.await(browser, worker, "return (await chrome.declarativeNetRequest.getMatchedRules({ minTimeStamp: \(Int(epochNow)) })).rulesMatchedInfo.length") as? Double
            #expect(profile == .chromium ? (count ?? 0) > 0 : count == 0, "profile \(profile)")
        }
    }

    @Test func chromiumQuotaLimitsPolling() throws {
        let (browser, host) = try browser(profile: .chromium)
        let worker = try #require(host.backgroundWorld)
        let result = try Support.await(browser, worker, """
            const outcomes = [];
            for (let i = 0; i < 21; i++) {
              try { await chrome.declarativeNetRequest.getMatchedRules(); outcomes.push("ok"); } catch (e) { outcomes.push(e.message); }
            }
            return outcomes.slice(19).join("|");
            """) as? String
        #expect(result == "ok|This request exceeds the MAX_GETMATCHEDRULES_CALLS_PER_INTERVAL quota.")
        try browser.loop.advance(by: .seconds(600))
        let later = try Support.await(browser, worker, "await chrome.declarativeNetRequest.getMatchedRules(); return 'ok'") as? String
        #expect(later == "ok")
    }

    @Test func feedbackNeedsItsPermission() throws {
        let (browser, _) = try Support.browser()
        let host = try #require(browser.extensions.first)
        let world = try #require(host.backgroundWorld)
        #expect(try Support.eval(world, "typeof chrome.declarativeNetRequest") as? String == "undefined")
    }
}
