import BrowserRuntime
import Foundation
import TestSupport
import Testing
import WebRuntime

/// storage.sync, getKeys, each area's onChanged and storage.session's access level (issue 23,
/// point 1), with each browser's limits and messages.
@Suite struct StorageTests {
    /// A browser with an extension that has a background and a content script on a.example.
    func browser(_ profile: Browser.Profile) throws -> (Browser, ExtensionHost, Tab) {
        let browser = try Support.emptyBrowser(profile: profile)
        browser.pageSource = { $0 == "https://a.example/" ? "<p>a</p>" : nil }
        browser.setSitePermission(.always, for: "*")
        let folder = try Support.extensionFolder("storage", [
            "manifest.json": #"{"manifest_version": 3, "name": "Store", "version": "1", "background": {"service_worker": "w.js"}, "permissions": ["storage"], "content_scripts": [{"matches": ["https://a.example/*"], "js": ["c.js"]}]}"#,
            "w.js": "",
            "c.js": "globalThis.heard = []; chrome.storage.onChanged.addListener((c, area) => heard.push(area + ' ' + Object.keys(c).join()));",
        ])
        let host = try browser.install(try ExtensionBundle(folder: folder))
        let tab = try browser.openTab(url: "https://a.example/")
        try browser.loop.runUntilIdle()
        return (browser, host, tab)
    }

    func content(_ tab: Tab, _ host: ExtensionHost) throws -> World { try #require(tab.page?.contentWorlds[host.id]) }

    @Test(arguments: [Browser.Profile.safari, .chromium])
    func syncIsAnAreaOfItsOwnWithItsLimits(_ profile: Browser.Profile) throws {
        let (browser, host, tab) = try browser(profile)
        let worker = try #require(host.backgroundWorld)
        let constants = try Support.eval(worker, """
            const s = chrome.storage.sync;
            [s.QUOTA_BYTES, s.QUOTA_BYTES_PER_ITEM, s.MAX_ITEMS, s.MAX_WRITE_OPERATIONS_PER_HOUR, s.MAX_WRITE_OPERATIONS_PER_MINUTE,
             chrome.storage.local.QUOTA_BYTES, chrome.storage.session.QUOTA_BYTES, String(chrome.storage.local.MAX_ITEMS)].join()
            """) as? String
        #expect(constants == "102400,8192,512,1800,120,\(profile == .chromium ? 10_485_760 : 5_242_880),10485760,undefined")
        let kept = try Support.await(browser, worker, """
            await chrome.storage.sync.set({ b: 2, a: 1 });
            return JSON.stringify([await chrome.storage.sync.getKeys(), await chrome.storage.local.getKeys(), await chrome.storage.sync.getBytesInUse()]);
            """) as? String
        #expect(kept == #"[["a","b"],[],4]"#)
        #expect(host.syncStorageJSON == #"{"a":1,"b":2}"# && host.localStorageJSON == "{}")
        // Content scripts have sync too.
        #expect(try Support.await(browser, try content(tab, host), "return (await chrome.storage.sync.get('a')).a") as? Double == 1)
        // An item over 8 KB: Safari throws in the caller, Chrome rejects.
        let big = try Support.await(browser, worker, """
            try { const p = chrome.storage.sync.set({ big: 'x'.repeat(8200) }); await p; return 'stored'; } catch (e) { return e.message; }
            """) as? String
        #expect(big == (profile == .chromium ? "QUOTA_BYTES_PER_ITEM quota exceeded"
            : "Invalid call to storageArea.set(). The 'items[`big`]' value is invalid, because it exceeded maximum size for a single item."))
        let many = try Support.await(browser, worker, """
            const items = {}; for (let i = 0; i < 600; i++) items['k' + i] = i;
            try { await chrome.storage.sync.set(items); return 'stored'; } catch (e) { return e.message; }
            """) as? String
        #expect(many == (profile == .chromium ? "MAX_ITEMS quota exceeded" : "Invalid call to browser.storage.sync.set(). Exceeded maximum number of items."))
        let total = try Support.await(browser, worker, """
            const items = {}; for (let i = 0; i < 20; i++) items['v' + i] = 'y'.repeat(8000);
            try { await chrome.storage.sync.set(items); return 'stored'; } catch (e) { return e.message; }
            """) as? String
        #expect(total == (profile == .chromium ? "QUOTA_BYTES quota exceeded" : "Invalid call to browser.storage.sync.set(). Exceeded storage quota."))
        #expect(host.syncStorageJSON == #"{"a":1,"b":2}"#, "a refused write changes nothing")
    }

    @Test func chromeLimitsSyncWritesAMinuteSafariDoesNot() throws {
        for profile in [Browser.Profile.safari, .chromium] {
            let (browser, host, _) = try browser(profile)
            let worker = try #require(host.backgroundWorld)
            let outcome = try Support.await(browser, worker, """
                let done = 0;
                try { for (let i = 0; i < 121; i++) { await chrome.storage.sync.set({ n: i }); done++; } } catch (e) { return done + ' ' + e.message; }
                await chrome.storage.sync.remove('n');
                return done + ' all';
                """) as? String
            #expect(outcome == (profile == .chromium ? "120 This request exceeds the MAX_WRITE_OPERATIONS_PER_MINUTE quota." : "121 all"))
            if profile == .chromium {
                // remove has its own count; a minute later set may write again.
                #expect(try Support.await(browser, worker, "await chrome.storage.sync.remove('n'); return 'removed'") as? String == "removed")
                try browser.loop.run(until: browser.loop.now + .seconds(61))
                #expect(try Support.await(browser, worker, "await chrome.storage.sync.set({ n: 0 }); return 'set'") as? String == "set")
            }
        }
    }

    @Test(arguments: [Browser.Profile.safari, .chromium])
    func anAreasOwnOnChangedFiresAsEachBrowserFiresIt(_ profile: Browser.Profile) throws {
        let (browser, host, _) = try browser(profile)
        let worker = try #require(host.backgroundWorld)
        try worker.evaluate("""
            globalThis.order = [];
            chrome.storage.onChanged.addListener((c, area) => order.push('storage ' + area));
            chrome.storage.sync.onChanged.addListener((...args) => order.push('sync ' + args.length + ' ' + (args[1] ?? '-')));
            """, sourceURL: "test.js")
        _ = try Support.await(browser, worker, "await chrome.storage.sync.set({ x: 1 })")
        try browser.loop.runUntilIdle()
        let order = try Support.eval(worker, "order.join('|')") as? String
        #expect(order == (profile == .chromium ? "sync 1 -|storage sync" : "storage sync|sync 2 sync"))
    }

    @Test(arguments: [Browser.Profile.safari, .chromium])
    func sessionStaysWithExtensionPagesUntilTheyOpenIt(_ profile: Browser.Profile) throws {
        let (browser, host, tab) = try browser(profile)
        let worker = try #require(host.backgroundWorld)
        let content = try content(tab, host)
        let chromium = profile == .chromium
        // Closed: Safari hides the area; Chrome has it and refuses every call.
        let closed = try Support.await(browser, content, """
            if (!chrome.storage.session) return 'hidden';
            try { await chrome.storage.session.get(); return 'read'; } catch (e) { return e.message; }
            """) as? String
        #expect(closed == (chromium ? "Access to storage is not allowed from this context." : "hidden"))
        _ = try Support.await(browser, worker, "await chrome.storage.session.set({ s: 1 })")
        try browser.loop.runUntilIdle()
        // Safari's content scripts hear session changes even so; Chrome's do not.
        let heard = try Support.eval(content, "heard.join('|')") as? String
        #expect(heard == (chromium ? "" : "session s"))
        // Bad levels, in each browser's words.
        let bad = try Support.eval(worker, "try { chrome.storage.session.setAccessLevel({ accessLevel: 'EVERYONE' }); 'accepted' } catch (e) { e.message }") as? String
        #expect(bad == (chromium
            ? "Error in invocation of storage.setAccessLevel(object accessOptions, optional function callback): Error at parameter 'accessOptions': Error at property 'accessLevel': Value must be one of TRUSTED_AND_UNTRUSTED_CONTEXTS, TRUSTED_CONTEXTS."
            : "Invalid call to storageArea.setAccessLevel(). The 'accessLevel' value is invalid, because it must specify either 'TRUSTED_CONTEXTS' or 'TRUSTED_AND_UNTRUSTED_CONTEXTS'."))
        _ = try Support.await(browser, worker, "await chrome.storage.session.setAccessLevel({ accessLevel: 'TRUSTED_AND_UNTRUSTED_CONTEXTS' })")
        // Open: the same content script reads it (Safari's property appears at once).
        #expect(try Support.await(browser, content, "return (await chrome.storage.session.get('s')).s") as? Double == 1)
        // Safari gives setAccessLevel to extension pages only; Chrome's content scripts are refused.
        let fromContent = try Support.await(browser, content, """
            if (!chrome.storage.session.setAccessLevel) return 'absent';
            try { await chrome.storage.session.setAccessLevel({ accessLevel: 'TRUSTED_CONTEXTS' }); return 'set'; } catch (e) { return e.message; }
            """) as? String
        #expect(fromContent == (chromium ? "Context cannot set the storage access level" : "absent"))
    }
}
