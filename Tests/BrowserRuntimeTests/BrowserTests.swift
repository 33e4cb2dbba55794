import BrowserRuntime
import JSKit
import TestSupport
import Testing
import WebRuntime

@Suite struct BrowserTests {
    @Test func backgroundStartsAndReceivesOnInstalled() throws {
        let (browser, host) = try Support.browser()
        #expect(host.localStorageJSON == #"{"installedReason":"install","visits":{}}"#)
        let background = try #require(host.backgroundWorld)
        #expect(try Support.eval(background, "typeof browser.runtime.sendMessage") as? String == "function")
        #expect(try Support.eval(background, "browser === chrome && browser.runtime.id") as? String == host.id)
        #expect(try Support.eval(background, "browser.runtime.getURL('/images/icon.svg')") as? String == "safari-web-extension://\(host.id)/images/icon.svg")
        #expect(try Support.eval(background, "browser.runtime.getManifest().name") as? String == "Sample Notes")
        let trace = browser.trace.dump()
        #expect(trace.contains("background console log: installed: install"))
    }

    @Test func contentScriptsRunOnlyWhereTheSiteIsGranted() throws {
        for (permission, runs) in [(SitePermission.always, true), (.once, true), (.denied, false), (.notAsked, false)] {
            let (browser, _) = try Support.browser(permission: permission)
            let tab = try browser.openTab(url: "https://news.example/a")
            try browser.loop.runUntilIdle()
            let page = try #require(tab.page)
            #expect((page.contentWorlds.isEmpty == false) == runs, "permission \(permission)")
            let badge = try Support.eval(page.pageWorld, "document.getElementById('sample-notes-count')?.textContent ?? null") as? String
            #expect(badge == (runs ? "visits: 1" : nil), "permission \(permission)")
        }
    }

    @Test func excludedAndUnrequestedSitesGetNothing() throws {
        let (browser, _) = try Support.browser()
        let excluded = try browser.openTab(url: "https://private.example/")
        let elsewhere = try browser.openTab(url: "https://news.other/")
        try browser.loop.runUntilIdle()
        #expect(excluded.page?.contentWorlds.isEmpty == true)
        #expect(elsewhere.page?.contentWorlds.isEmpty == true)
    }

    /// HTML 6.2 Page Visibility: only the active tab's documents are visible; switching tabs hides
    /// the old one first, then shows the new one, each with a bubbling `visibilitychange`.
    @Test func onlyTheActiveTabIsVisible() throws {
        let (browser, _) = try Support.browser()
        let first = try browser.openTab(url: "https://news.example/a")
        let watch = "window.seen = []; document.addEventListener('visibilitychange', (e) => seen.push(document.visibilityState + (e.bubbles ? '' : ' (not bubbling)')));"
        let firstPage = try #require(first.page)
        _ = try Support.eval(firstPage.pageWorld, watch)
        #expect(try Support.eval(firstPage.pageWorld, "[document.visibilityState, document.hidden].join()") as? String == "visible,false")

        let background = try browser.openTab(url: "https://news.example/b", active: false)
        let backgroundPage = try #require(background.page)
        #expect(try Support.eval(backgroundPage.pageWorld, "[document.visibilityState, document.hidden].join()") as? String == "hidden,true")
        _ = try Support.eval(backgroundPage.pageWorld, watch)

        browser.activate(background)
        try browser.loop.runUntilIdle()
        #expect(try Support.eval(firstPage.pageWorld, "seen.join()") as? String == "hidden")
        #expect(try Support.eval(backgroundPage.pageWorld, "seen.join() + ' ' + document.hidden") as? String == "visible false")
        browser.activate(first)
        try browser.loop.runUntilIdle()
        #expect(try Support.eval(firstPage.pageWorld, "seen.join()") as? String == "hidden,visible")
        #expect(try Support.eval(backgroundPage.pageWorld, "seen.join()") as? String == "visible,hidden")
    }

    /// HTML 12.2: localStorage is per origin for the whole browser, sessionStorage per tab and
    /// origin; a change fires `storage` at the other documents of the area, never the changer.
    @Test func webStorageIsPerOriginAndSessionStoragePerTab() throws {
        let (browser, _) = try Support.browser()
        let first = try browser.openTab(url: "https://news.example/a")
        let second = try browser.openTab(url: "https://news.example/b")
        let firstPage = try #require(first.page), secondPage = try #require(second.page)
        let watch = "window.events = []; addEventListener('storage', (e) => events.push([e.key, e.oldValue, e.newValue, e.url, e.storageArea === localStorage].join()));"
        _ = try Support.eval(firstPage.pageWorld, watch)
        _ = try Support.eval(secondPage.pageWorld, watch)
        _ = try Support.eval(firstPage.pageWorld, "localStorage.setItem('k', 'v1'); sessionStorage.setItem('s', 'first tab'); localStorage.setItem('k', 'v2');")
        try browser.loop.runUntilIdle()
        #expect(try Support.eval(secondPage.pageWorld, "events.join(' | ')") as? String
                == "k,,v1,https://news.example/a,true | k,v1,v2,https://news.example/a,true")
        #expect(try Support.eval(firstPage.pageWorld, "events.length") as? Double == 0)
        #expect(try Support.eval(secondPage.pageWorld, "[localStorage.getItem('k'), sessionStorage.getItem('s')].join()") as? String == "v2,")

        // sessionStorage follows the tab through its navigations; a restart keeps only localStorage.
        try browser.navigate(first, to: "https://news.example/c")
        #expect(try Support.eval(try #require(first.page).pageWorld, "sessionStorage.getItem('s')") as? String == "first tab")
        try browser.restart()
        let reopened = try browser.openTab(url: "https://news.example/a")
        #expect(try Support.eval(try #require(reopened.page).pageWorld, "[localStorage.getItem('k'), sessionStorage.length].join()") as? String == "v2,0")
        let hidden = try browser.openTab(url: "https://news.example/a", isPrivate: true)
        #expect(try Support.eval(try #require(hidden.page).pageWorld, "localStorage.getItem('k')") == nil)
    }

    @Test func grantedOnceLapsesOnNavigation() throws {
        let (browser, _) = try Support.browser(permission: .notAsked)
        browser.setSitePermission(.once, for: "news.example")
        let tab = try browser.openTab(url: "https://news.example/1")
        try browser.loop.runUntilIdle()
        #expect(tab.page?.contentWorlds.count == 1)
        try browser.navigate(tab, to: "https://news.example/2")
        try browser.loop.runUntilIdle()
        #expect(tab.page?.contentWorlds.isEmpty == true)
        #expect(browser.sitePermission(for: "https://news.example/2") == .notAsked)
    }

    @Test func messagingRoundTripsWithSenderDetails() throws {
        let (browser, host) = try Support.browser()
        let tab = try browser.openTab(url: "https://news.example/story")
        try browser.loop.runUntilIdle()
        let content = try #require(try tab.page?.contentWorld(for: host.id))
        #expect(Support.logs(tab.page!).contains("visit 1 tab \(tab.id) frame 0"))
        let ping = try Support.await(browser, content, "return (await browser.runtime.sendMessage({ type: 'ping' })).pong") as? Bool
        #expect(ping == true)
        let slow = try Support.await(browser, content, "const t0 = performance.now(); const r = await browser.runtime.sendMessage({ type: 'slow' }); return r.late - t0") as? Double
        #expect(slow == 200)
        let failure = try Support.await(browser, content, "try { await browser.runtime.sendMessage({ type: 'fail', why: 'no' }); return 'resolved' } catch (e) { return e.message }") as? String
        #expect(failure == "refused: no")
        let unanswered = try Support.await(browser, content, "return String(await browser.runtime.sendMessage({ type: 'unknown' }))") as? String
        #expect(unanswered == "undefined")
        let arity = try Support.await(browser, content, "try { await browser.runtime.sendMessage(); } catch (e) { return e.message }") as? String
        #expect(arity == "Expected at least 1 argument for sendMessage(), got 0")
    }

    /// The sample extension on a loaded news page, with `backgroundListeners` run in its
    /// background; returns the page's content world.
    private func storyPage(backgroundListeners: String) throws -> (Browser, World) {
        let (browser, host) = try Support.browser()
        let tab = try browser.openTab(url: "https://news.example/story")
        try browser.loop.runUntilIdle()
        _ = try #require(host.backgroundWorld).evaluate(backgroundListeners, sourceURL: "test:listeners")
        return (browser, try #require(try tab.page?.contentWorld(for: host.id)))
    }

    /// A message and its answer reach the other side with their keys in the order the sender
    /// wrote them (Safari's messages are structured clones); traces show them canonical.
    @Test func messagesKeepTheirKeyOrder() throws {
        let (browser, content) = try storyPage(backgroundListeners: """
            browser.runtime.onMessage.addListener((m, sender, respond) => {
              if (m.type === 'order') { respond({ zulu: 1, alpha: Object.keys(m).join(','), nested: { y: 1, b: 2 } }); return true; }
            });
            browser.runtime.onConnect.addListener((port) => port.onMessage.addListener((m) => port.postMessage({ keys: Object.keys(m).join(','), echo: m })));
            """)
        let reply = try Support.await(browser, content, """
            const r = await browser.runtime.sendMessage({ type: 'order', zeta: 1, beta: 2 });
            const port = browser.runtime.connect({ name: 'order' });
            const echoed = await new Promise((resolve) => { port.onMessage.addListener(resolve); port.postMessage({ second: 2, first: 1 }); });
            return [Object.keys(r).join(','), r.alpha, Object.keys(r.nested).join(','), echoed.keys, Object.keys(echoed).join(',')].join(' | ');
            """) as? String
        #expect(reply == "zulu,alpha,nested | type,zeta,beta | y,b | second,first | keys,echo")
        let api = browser.trace.dump(channels: [.api])
        #expect(api.contains(#"runtime.sendMessage({"beta":2,"type":"order","zeta":1})"#))
        #expect(api.contains(#"runtime.sendMessage -> {"alpha":"type,zeta,beta","nested":{"b":2,"y":1},"zulu":1}"#))
        #expect(api.contains(#"postMessage({"first":1,"second":2})"#))
    }

    /// A message's trace text is its canonical JSON (JS/canonical.js's order): array-index keys
    /// first and ascending, the others by UTF-16 code units, at every depth and inside arrays,
    /// whatever the strings hold; the receiver still gets the sender's order.
    @Test func messageTraceTextIsCanonical() throws {
        let (browser, content) = try storyPage(backgroundListeners: """
            browser.runtime.onMessage.addListener((m, sender, respond) => {
              if (m.type === 'keys') { respond(Object.keys(m.a).join(',')); return true; }
            });
            """)
        let reply = try Support.await(browser, content, """
            return await browser.runtime.sendMessage({ type: 'keys', b: [{ d: 1, c: '{"z":1,"a":2}' }, 3], a: { '10': 1, Z: 5, '\u{1F600}': 6, '\u{FF01}': 7, '2': 2, '01': 3, 'é': 4, '4294967295': 8 } });
            """) as? String
        #expect(reply == "2,10,Z,\u{1F600},\u{FF01},01,é,4294967295")
        let api = browser.trace.dump(channels: [.api])
        #expect(api.contains(#"runtime.sendMessage({"a":{"2":2,"10":1,"01":3,"4294967295":8,"Z":5,"é":4,"\#u{1F600}":6,"\#u{FF01}":7},"b":[{"c":"{\"z\":1,\"a\":2}","d":1},3],"type":"keys"})"#))
    }

    /// The receiver gets a message in a task of its own, as across Safari's processes: the
    /// sender's script runs to its end first, and so does the code that fired an event.
    @Test func messagesAndEventsArriveAfterTheSendersScript() throws {
        let (browser, content) = try storyPage(backgroundListeners: """
            browser.runtime.onMessage.addListener((m) => { if (m.type === 'order') console.log('received'); });
            browser.storage.onChanged.addListener(() => console.log('changed'));
            """)
        _ = try content.evaluate("""
            browser.runtime.sendMessage({ type: 'order' });
            console.log('sent');
            browser.storage.local.set({ k: 1 });
            console.log('written');
            """, sourceURL: "test:sender")
        try browser.loop.runUntilIdle()
        let lines = browser.trace.dump(channels: [.console]).split(separator: "\n").compactMap { line in
            ["sent", "written", "received", "changed"].first { line.hasSuffix(" " + $0) || line.hasSuffix(": " + $0) }
        }
        #expect(lines == ["sent", "written", "received", "changed"])
    }

    @Test func messagingWithoutReceiverFails() throws {
        let (browser, host) = try Support.browser()
        let tab = try browser.openTab(url: "https://news.example/")
        try browser.loop.runUntilIdle()
        let background = try #require(host.backgroundWorld)
        // Background -> runtime.sendMessage reaches extension pages, not content scripts.
        let error = try Support.await(browser, background, "try { await browser.runtime.sendMessage('hi'); } catch (e) { return e.message }") as? String
        #expect(error == "Could not establish connection. Receiving end does not exist.")
        let tabError = try Support.await(browser, background, "try { await browser.tabs.sendMessage(\(tab.id), 'hi'); } catch (e) { return e.message }") as? String
        #expect(tabError == "Could not establish connection. Receiving end does not exist.")
        let missingTab = try Support.await(browser, background, "try { await browser.tabs.get(99); } catch (e) { return e.message }") as? String
        // WebKit: toWebExtensionError(@"tabs.get()", nil, @"tab not found").
        #expect(missingTab == "Invalid call to tabs.get(). Tab not found.")
    }

    @Test func namespacesFollowContextAndPermissions() throws {
        let (browser, host) = try Support.browser()
        let tab = try browser.openTab(url: "https://news.example/")
        try browser.loop.runUntilIdle()
        let content = try #require(try tab.page?.contentWorld(for: host.id))
        #expect(try Support.eval(content, "[typeof browser.tabs, typeof browser.action, typeof browser.storage.local, typeof browser.storage.session, typeof browser.declarativeNetRequest].join()") as? String
                == "undefined,undefined,object,undefined,undefined")
        let background = try #require(host.backgroundWorld)
        #expect(try Support.eval(background, "[typeof browser.tabs.query, typeof browser.action.setIcon, typeof browser.storage.session.get, typeof browser.declarativeNetRequest].join()") as? String
                == "function,function,function,undefined")
    }

    @Test func pageScriptsCannotSeeTheBrowserObject() throws {
        let (browser, _) = try Support.browser()
        let tab = try browser.openTab(url: "https://news.example/")
        try browser.loop.runUntilIdle()
        #expect(try Support.eval(tab.page!.pageWorld, "typeof browser + typeof chrome") as? String == "undefinedundefined")
    }
}

@Suite struct StorageAPITests {
    @Test func setGetRemoveClearAndBytes() throws {
        let (browser, host) = try Support.browser()
        let world = try #require(host.backgroundWorld)
        let result = try Support.await(browser, world, """
            await browser.storage.local.clear();
            await browser.storage.local.set({ b: [1, { z: 1, a: 2 }], a: "x", gone: null, fn: () => 1, when: new Date(0) });
            const all = await browser.storage.local.get();
            const one = await browser.storage.local.get("a");
            const some = await browser.storage.local.get(["a", "missing"]);
            const defaults = await browser.storage.local.get({ a: "default", c: 3 });
            const bytes = await browser.storage.local.getBytesInUse(["a"]);
            await browser.storage.local.remove(["a", "b"]);
            const after = await browser.storage.local.get(null);
            return JSON.stringify({ keys: Object.keys(all), b: all.b, when: all.when, one, some, defaults, bytes, after });
            """) as? String
        #expect(result == #"{"keys":["a","b","gone","when"],"b":[1,{"z":1,"a":2}],"when":"1970-01-01T00:00:00.000Z","one":{"a":"x"},"some":{"a":"x"},"defaults":{"a":"x","c":3},"bytes":4,"after":{"gone":null,"when":"1970-01-01T00:00:00.000Z"}}"#)
        #expect(host.localStorageJSON == #"{"gone":null,"when":"1970-01-01T00:00:00.000Z"}"#)
    }

    @Test func bytesInUseFollowOverwritesAndRemovals() throws {
        let (browser, host) = try Support.browser()
        let world = try #require(host.backgroundWorld)
        let result = try Support.await(browser, world, """
            await browser.storage.local.clear();
            const sizes = [];
            await browser.storage.local.set({ b: "xx", a: 1 });
            sizes.push(await browser.storage.local.getBytesInUse(null));
            await browser.storage.local.set({ b: "x", c: [1] });
            sizes.push(await browser.storage.local.getBytesInUse(null));
            await browser.storage.local.remove("a");
            sizes.push(await browser.storage.local.getBytesInUse(null));
            return sizes.join() + " " + JSON.stringify(await browser.storage.local.get(null));
            """) as? String
        // key bytes + JSON value bytes: b "xx" (1+4) + a 1 (1+1) = 7; b "x" (1+3) + a + c [1] (1+3) = 10; minus a = 8.
        #expect(result == #"7,10,8 {"b":"x","c":[1]}"#)
        #expect(host.localStorageJSON == #"{"b":"x","c":[1]}"#)
    }

    @Test func readsAreCopies() throws {
        let (browser, host) = try Support.browser()
        let world = try #require(host.backgroundWorld)
        let result = try Support.await(browser, world, """
            const value = { list: [1] };
            await browser.storage.local.set({ value });
            value.list.push(2);
            const first = (await browser.storage.local.get("value")).value;
            first.list.push(3);
            return (await browser.storage.local.get("value")).value.list.length;
            """) as? Double
        #expect(result == 1)
    }

    @Test func onChangedReachesEveryContextOfTheExtension() throws {
        let (browser, host) = try Support.browser()
        let tab = try browser.openTab(url: "https://news.example/")
        try browser.loop.runUntilIdle()
        let background = try #require(host.backgroundWorld)
        try background.evaluate("var seen = []; browser.storage.onChanged.addListener((c, area) => seen.push(area + ':' + JSON.stringify(c)));", sourceURL: "test")
        _ = try Support.await(browser, background, "await browser.storage.local.set({ flag: true }); await browser.storage.local.set({ flag: true }); await browser.storage.session.set({ s: 1 });")
        try browser.loop.runUntilIdle()
        let seen = (try Support.eval(background, "seen") as? [Any?])?.compactMap { $0 as? String }
        #expect(seen == [#"local:{"flag":{"newValue":true}}"#, #"session:{"s":{"newValue":1}}"#])
        // Safari sends every area's changes to content scripts, storage.session's too, though
        // the area itself is hidden from them (StorageTests has Chrome's rule).
        let contentLogs = Support.logs(tab.page!).filter { $0.hasPrefix("storage changed") }
        #expect(contentLogs.contains("storage changed in local flag"))
        #expect(contentLogs.contains("storage changed in session s"), "\(contentLogs)")
    }

    @Test func quotaIsEnforcedAtomically() throws {
        let (browser, host) = try Support.browser()
        let world = try #require(host.backgroundWorld)
        let message = try Support.await(browser, world, """
            try { await browser.storage.local.set({ small: 1, huge: "x".repeat(browser.storage.local.QUOTA_BYTES) }); return "stored"; }
            catch (e) { return e.message + " / small stored: " + ("small" in await browser.storage.local.get("small")); }
            """) as? String
        #expect(message == "Invalid call to browser.storage.local.set(). Exceeded storage quota. / small stored: false")
    }

    /// Reading everything after each kind of write (values of existing keys changed, longer and
    /// shorter, a key added, a key removed, a clear) gives exactly what a model of the area holds.
    @Test func readingEverythingFollowsEveryKindOfWrite() throws {
        let (browser, host) = try Support.browser()
        let worker = try #require(host.backgroundWorld)
        let mismatches = try Support.await(browser, worker, """
            const model = {};
            const canonical = (o) => JSON.stringify(Object.keys(o).sort().map((k) => [k, o[k]]));
            const problems = [];
            async function check(step) {
              const all = await browser.storage.local.get(null);
              if (canonical(all) !== canonical(model)) problems.push(step + ": " + canonical(all));
            }
            await browser.storage.local.clear();
            const first = {};
            for (let i = 0; i < 30; i++) first["k" + String(i).padStart(2, "0")] = { v: i, s: "x".repeat(i) };
            await browser.storage.local.set(first); Object.assign(model, first); await check("first");
            const changes = { k03: "a much longer value than the object it replaces", k10: 1, k29: [1, 2, 3], k00: { v: 0, s: "" } };
            await browser.storage.local.set(changes); Object.assign(model, changes); await check("values changed");
            await browser.storage.local.set({ k04: "é ü — non-ASCII" }); model.k04 = "é ü — non-ASCII"; await check("non-ASCII value");
            await browser.storage.local.set({ k15a: true, k05: null }); model.k15a = true; model.k05 = null; await check("key added");
            await browser.storage.local.remove("k07"); delete model.k07; await check("key removed");
            await browser.storage.local.set({ k08: 8 }); model.k08 = 8; await check("after removal");
            await browser.storage.local.clear(); for (const k of Object.keys(model)) delete model[k]; await check("cleared");
            await browser.storage.local.set({ z: 1 }); model.z = 1; await check("after clear");
            return problems.join("\\n");
            """) as? String
        #expect(mismatches == "")
    }

    @Test func storagePersistsAcrossBackgroundSuspension() throws {
        let (browser, host) = try Support.browser()
        let first = try #require(host.backgroundWorld)
        try first.evaluate("var inMemory = 42;", sourceURL: "test")
        browser.suspendBackground(of: host)
        #expect(host.backgroundWorld == nil)
        try browser.wakeBackground(of: host)
        let second = try #require(host.backgroundWorld)
        #expect(try Support.eval(second, "typeof inMemory") as? String == "undefined")
        #expect(try Support.await(browser, second, "return (await browser.storage.local.get('installedReason')).installedReason") as? String == "install")
    }
}

@Suite struct ActionAPITests {
    @Test func perTabBadgeIsTracedAndClearedOnNavigationInSafari() throws {
        let (browser, host) = try Support.browser()
        let tab = try browser.openTab(url: "https://news.example/")
        try browser.loop.runUntilIdle()
        #expect(host.toolbar(for: tab).badge == "1")
        try browser.navigate(tab, to: "https://news.example/next")
        #expect(host.toolbar(for: tab).badge == "")
        try browser.loop.runUntilIdle()
        #expect(host.toolbar(for: tab).badge == "2")
        let toolbar = browser.trace.dump(channels: [.toolbar]).split(separator: "\n").map { String($0.drop { $0 == " " }) }
        #expect(toolbar.count == 3)
        #expect(toolbar[0].hasPrefix("0ms tab1 toolbar icon=images/icon.svg badge=\"1\" title=\"Sample Notes\" (action.setBadgeText from background)"))
        #expect(toolbar[1].hasSuffix("badge=\"\" title=\"Sample Notes\" (navigation cleared tab customizations)"))
        #expect(toolbar[2].contains("badge=\"2\""))
    }

    @Test func chromiumKeepsPerTabValuesUntilTheTabCloses() throws {
        let (browser, host) = try Support.browser(profile: .chromium)
        let tab = try browser.openTab(url: "https://news.example/")
        try browser.loop.runUntilIdle()
        try browser.navigate(tab, to: "https://elsewhere.test/")
        try browser.loop.runUntilIdle()
        #expect(host.toolbar(for: tab).badge == "1")
    }

    @Test func settersAndGettersWithGlobalFallback() throws {
        let (browser, host) = try Support.browser()
        let tab = try browser.openTab(url: "https://elsewhere.test/")
        try browser.loop.runUntilIdle()
        let world = try #require(host.backgroundWorld)
        let result = try Support.await(browser, world, """
            await browser.action.setTitle({ title: "Global" });
            await browser.action.setTitle({ title: "Tab", tabId: \(tab.id) });
            await browser.action.setIcon({ path: { "32": "big.svg", "16": "small.svg" } });
            let error;
            try { await browser.action.setIcon({}); } catch (e) { error = e.message; }
            return [await browser.action.getTitle({}), await browser.action.getTitle({ tabId: \(tab.id) }), error].join("|");
            """) as? String
        #expect(result == "Global|Tab|Either path or imageData must be specified.")
        #expect(host.toolbar(for: tab).icon == "small.svg")
    }
}

@Suite struct FaultPlanTests {
    @Test func nthCallFailsAndDelaysAreTraced() throws {
        let (browser, host) = try Support.browser()
        host.faults = FaultPlan(rules: [
            FaultPlan.Rule(method: "storage.local.set", nthCall: 2, error: "disk full"),
            FaultPlan.Rule(method: "storage.local.get", delay: .milliseconds(300)),
        ])
        let world = try #require(host.backgroundWorld)
        let result = try Support.await(browser, world, """
            await browser.storage.local.set({ one: 1 });
            let failed;
            try { await browser.storage.local.set({ two: 2 }); } catch (e) { failed = e.message; }
            await browser.storage.local.set({ three: 3 });
            const t0 = performance.now();
            const got = await browser.storage.local.get(["one", "two", "three"]);
            return [failed, Object.keys(got).join(","), performance.now() - t0].join("|");
            """) as? String
        #expect(result == "disk full|one,three|300")
        let storage = browser.trace.dump(channels: [.storage])
        #expect(storage.contains(#"background storage storage.local.set({"two":2})"# + "\n" + "       0ms background storage storage.local.set rejected: disk full (0ms)"))
        #expect(storage.contains("storage.local.get -> {\"one\":1,\"three\":3} (300ms)"))
    }
}

@Suite struct CanonicalJSONTests {
    @Test func storageKeepsTheValuesOwnKeyOrder() throws {
        let (browser, host) = try Support.browser()
        let world = try #require(host.backgroundWorld)
        // As a browser stores a value (its JSON serialization): integer-like keys ascending, then
        // the other keys in insertion order; only the top-level storage keys come back sorted.
        _ = try Support.await(browser, world, """
            const small = {};
            for (const k of ["b", "10", "a", "9", "__x", "1"]) small[k] = k;
            await browser.storage.local.set({ small });
            """)
        #expect(host.localStorageJSON.contains(#""small":{"1":"1","9":"9","10":"10","b":"b","a":"a","__x":"__x"}"#))
        let cyclic = try Support.await(browser, world, "const o = {}; o.self = o; try { await browser.storage.local.set({ o }); } catch (e) { return e.message }") as? String
        #expect(cyclic == "JSON.stringify cannot serialize cyclic structures.")
        let odd = try Support.await(browser, world, """
            await browser.storage.local.set({ odd: { d: new Date(0), n: new Number(3), s: new String("x"), f() {}, u: undefined, list: [undefined, () => 1, NaN] } });
            return JSON.stringify((await browser.storage.local.get("odd")).odd);
            """) as? String
        #expect(odd == #"{"d":"1970-01-01T00:00:00.000Z","n":3,"s":"x","list":[null,null,null]}"#)
    }

    @Test func otherCallsAreCanonicalForLargeAndSmallObjectsAlike() throws {
        let (browser, host) = try Support.browser()
        let world = try #require(host.backgroundWorld)
        // 70 keys takes the member-by-member path, 7 keys the sorted copy: same order either way.
        _ = try Support.await(browser, world, """
            const big = {}, small = {};
            for (const k of ["b", "10", "a", "9", "__x", "1"]) { big[k] = k; small[k] = k; }
            for (let i = 0; i < 64; i++) big["z" + i] = i;
            for (const value of [small, big]) { try { await browser.runtime.sendMessage(value); } catch (e) {} }
            """)
        let api = browser.trace.dump(channels: [.api])
        #expect(api.contains(#"runtime.sendMessage({"1":"1","9":"9","10":"10","__x":"__x","a":"a","b":"b"})"#))
        #expect(api.contains(#"runtime.sendMessage({"1":"1","9":"9","10":"10","__x":"__x","a":"a","b":"b","z0":0,"z1":1,"z10":10"#))
    }
}

/// What a context's `browser` throws or rejects with belongs to the context's realm, as a
/// browser's bindings make exceptions in the caller's global object: `instanceof` holds there.
@Suite struct APIErrorRealmTests {
    @Test func errorsAndRejectionsAreTheCallersOwn() throws {
        let (browser, host) = try Support.outlineBrowser()
        let tab = try browser.openTab(url: "https://news.test/")
        try browser.loop.runUntilIdle()
        let worlds = [try #require(host.backgroundWorld), try #require(tab.page?.world(named: "content:\(host.id)"))]
        for world in worlds {
            let answer = try Support.await(browser, world, """
                const tooFew = browser.runtime.sendMessage();
                const rejected = await tooFew.then(() => null, (e) => e);
                let thrown;
                try { browser.runtime.onMessage.addListener(5); } catch (e) { thrown = e; }
                return [tooFew instanceof Promise, rejected instanceof TypeError, thrown instanceof TypeError, rejected.message].join(' ');
                """) as? String
            #expect(answer == "true true true Expected at least 1 argument for sendMessage(), got 0", "\(world.name)")
        }
    }
}
