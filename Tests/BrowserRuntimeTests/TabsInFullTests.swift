import BrowserRuntime
import Foundation
import TestSupport
import Testing
import WebRuntime

/// tabs in full (issue 23, point 1): every query filter, create and update with every property,
/// the selection (onHighlighted, Chrome's highlight), Chrome's move between windows, groups and
/// discard, Safari's Reader, the Tab object each browser reports, and each browser's argument
/// checks in the caller.
@Suite struct TabsInFullTests {
    static let pages = [
        "https://a.example/": "<!DOCTYPE html><title>Alpha news</title><p>a</p>",
        "https://b.example/": "<!DOCTYPE html><title>Beta</title><article><h1>Story</h1><p>text</p></article>",
        "https://c.example/": "<!DOCTYPE html><title>Gamma news</title><p>c</p>",
    ]

    /// A browser with three tabs (a, b, c; c active) and the sample extension's background.
    func make(_ profile: Browser.Profile) throws -> (Browser, World) {
        let (browser, host) = try Support.browser(pages: Self.pages, profile: profile)
        for url in Self.pages.keys.sorted() { try browser.openTab(url: url) }
        try browser.loop.runUntilIdle()
        return (browser, try #require(host.backgroundWorld))
    }

    /// What `script` throws (its message) or answers, as text.
    func outcome(_ browser: Browser, _ worker: World, _ script: String) throws -> String {
        try Support.await(browser, worker, "try { const r = await (\(script)); return JSON.stringify(r) ?? 'undefined'; } catch (e) { return e.constructor.name + ': ' + e.message; }") as? String ?? "?"
    }

    @Test func safariChecksArgumentsInTheCallerInWebKitsWords() throws {
        let (browser, worker) = try make(.safari)
        // WebKit's bindings and WebExtensionAPITabsCocoa.mm: thrown at once, never sent.
        let cases: [(String, String)] = [
            ("browser.tabs.get('bad')", "Invalid call to tabs.get(). The 'tabId' value is invalid, because a number is expected."),
            ("browser.tabs.get(-3)", "Invalid call to tabs.get(). The 'tabId' value is invalid, because it is not a tab identifier."),
            ("browser.tabs.duplicate('bad')", "Invalid call to tabs.duplicate(). The 'tabId' value is invalid, because a number is expected."),
            ("browser.tabs.remove('bad')", "Invalid call to tabs.remove(). The 'tabIDs' value is invalid, because a number or an array of numbers is expected, but a string was provided."),
            ("browser.tabs.remove([1, 'bad'])", "Invalid call to tabs.remove(). The 'tabIDs' value is invalid, because a number or an array of numbers is expected, but an array of other values was provided."),
            ("browser.tabs.reload('bad')", "Invalid call to tabs.reload(). An unknown argument was provided."),
            ("browser.tabs.goBack('bad')", "Invalid call to tabs.goBack(). The 'tabId' value is invalid, because a number is expected."),
            ("browser.tabs.toggleReaderMode('bad')", "Invalid call to tabs.toggleReaderMode(). The 'tabId' value is invalid, because a number is expected."),
            ("browser.tabs.setZoom(1, 'bad')", "Invalid call to tabs.setZoom(). The 'zoomFactor' value is invalid, because a number is expected."),
            ("browser.tabs.update(1, 'bad')", "Invalid call to tabs.update(). The 'properties' value is invalid, because an object is expected, but a string was provided."),
            ("browser.tabs.update(1, { openerTabId: true })", "Invalid call to tabs.update(). The 'properties' value is invalid, because 'openerTabId' is expected to be a number, but a boolean was provided."),
            ("browser.tabs.update(1, { openerTabId: 4.2 })", "Invalid call to tabs.update(). The 'openerTabId' value is invalid, because '4.2' is not a tab identifier."),
            ("browser.tabs.create({ url: 1234 })", "Invalid call to tabs.create(). The 'properties' value is invalid, because 'url' is expected to be a string, but a number was provided."),
            ("browser.tabs.create({ windowId: -1 })", "Invalid call to tabs.create(). The 'windowId' value is invalid, because '-1' is not a window identifier."),
            ("browser.tabs.query({ status: 'bad' })", "Invalid call to tabs.query(). The 'status' value is invalid, because it must specify either 'loading' or 'complete'."),
            ("browser.tabs.query({ url: 12345 })", "Invalid call to tabs.query(). The 'info' value is invalid, because 'url' is expected to be a string or an array of strings, but a number was provided."),
            ("browser.tabs.query({ url: ['*://*/*', 5] })", "Invalid call to tabs.query(). The 'info' value is invalid, because 'url' is expected to be a string or an array of strings, but an array of other values was provided."),
            ("browser.tabs.query({ url: 'not a pattern' })", "Invalid call to tabs.query(). The 'url' value is invalid, because 'not a pattern' is not a valid pattern."),
            ("browser.tabs.query({ windowId: -5 })", "Invalid call to tabs.query(). The 'windowId' value is invalid, because '-5' is not a window identifier."),
            ("browser.tabs.query({ windowType: 'app' })", "Invalid call to tabs.query(). The 'windowType' value is invalid, because it must specify either 'normal' or 'popup'."),
            ("browser.tabs.query({ active: 'true' })", "Invalid call to tabs.query(). The 'info' value is invalid, because 'active' is expected to be a boolean, but a string was provided."),
            ("browser.tabs.query({ index: 'five' })", "Invalid call to tabs.query(). The 'info' value is invalid, because 'index' is expected to be a number, but a string was provided."),
            ("browser.tabs.captureVisibleTab('bad', { format: 'png' })", "Invalid call to tabs.captureVisibleTab(). An unknown argument was provided."),
            ("browser.tabs.captureVisibleTab(undefined, { format: 'gif' })", "Invalid call to tabs.captureVisibleTab(). The 'format' value is invalid, because it must specify either 'png' or 'jpeg'."),
            ("browser.tabs.captureVisibleTab(undefined, { quality: 200 })", "Invalid call to tabs.captureVisibleTab(). The 'quality' value is invalid, because it must specify a value between 0 and 100."),
        ]
        for (call, message) in cases {
            #expect(try Support.eval(worker, "try { \(call); 'no throw' } catch (e) { (e instanceof Error) + ' ' + e.message }") as? String == "true " + message, "\(call)")
        }
        // What only the browser knows is a rejection.
        #expect(try outcome(browser, worker, "browser.tabs.get(9999)") == "Error: Invalid call to tabs.get(). Tab not found.")
        #expect(try outcome(browser, worker, "browser.tabs.remove([1, 9999])") == "Error: Invalid call to tabs.remove(). Tab '9999' was not found.")
        #expect(browser.tabs.count == 3, "a missing id closes no tab")
        #expect(try outcome(browser, worker, "browser.tabs.toggleReaderMode(9999)") == "Error: Invalid call to tabs.toggleReaderMode(). Tab not found.")
    }

    @Test func chromeChecksArgumentsAgainstItsSignatures() throws {
        let (browser, worker) = try make(.chromium)
        let cases: [(String, String)] = [
            ("chrome.tabs.get('bad')", "Error in invocation of tabs.get(integer tabId, optional function callback): No matching signature."),
            ("chrome.tabs.get(-3)", "Error in invocation of tabs.get(integer tabId, optional function callback): Error at parameter 'tabId': Value must be at least 0."),
            ("chrome.tabs.query({ status: 'bad' })", "Error in invocation of tabs.query(object queryInfo, optional function callback): Error at parameter 'queryInfo': Error at property 'status': Value must be one of complete, loading, unloaded."),
            ("chrome.tabs.query({ active: 'yes' })", "Error in invocation of tabs.query(object queryInfo, optional function callback): Error at parameter 'queryInfo': Error at property 'active': Invalid type: expected boolean, found string."),
            ("chrome.tabs.query({ url: ['*://*/*', 5] })", "Error in invocation of tabs.query(object queryInfo, optional function callback): Error at parameter 'queryInfo': Error at property 'url': Value did not match any choice."),
            ("chrome.tabs.query({ colour: 'red' })", "Error in invocation of tabs.query(object queryInfo, optional function callback): Error at parameter 'queryInfo': Unexpected property: 'colour'."),
            ("chrome.tabs.update(1, { pinned: 1 })", "Error in invocation of tabs.update(optional integer tabId, object updateProperties, optional function callback): Error at parameter 'updateProperties': Error at property 'pinned': Invalid type: expected boolean, found integer."),
            ("chrome.tabs.move(1, {})", "Error in invocation of tabs.move([integer|array] tabIds, object moveProperties, optional function callback): Error at parameter 'moveProperties': Missing required property 'index'."),
            ("chrome.tabs.highlight({ tabs: 'x' })", "Error in invocation of tabs.highlight(object highlightInfo, optional function callback): Error at parameter 'highlightInfo': Error at property 'tabs': Value did not match any choice."),
        ]
        for (call, message) in cases {
            #expect(try Support.eval(worker, "try { \(call); 'no throw' } catch (e) { (e instanceof TypeError) + ' ' + e.message }") as? String == "true " + message, "\(call)")
        }
        // Optional leading arguments are matched by type: setZoom(1.5) is the factor alone.
        #expect(try outcome(browser, worker, "chrome.tabs.setZoom(1.5).then(() => chrome.tabs.getZoom())") == "1.5")
        #expect(try outcome(browser, worker, "chrome.tabs.get(9999)") == "Error: No tab with id: 9999.")
    }

    @Test(arguments: [Browser.Profile.safari, .chromium])
    func aTabReportsWhatItsBrowserReports(_ profile: Browser.Profile) throws {
        let (browser, worker) = try make(profile)
        let keys = try Support.await(browser, worker, "return Object.keys(await chrome.tabs.get(2)).sort().join()") as? String
        let common = ["active", "audible", "height", "highlighted", "id", "incognito", "index", "mutedInfo", "pinned", "selected", "status", "title", "url", "width", "windowId"]
        let own = profile == .chromium ? ["autoDiscardable", "discarded", "frozen", "groupId"] : ["isArticle", "isInReaderMode"]
        #expect(keys == (common + own).sorted().joined(separator: ","))
        let tab = try Support.await(browser, worker, "const t = await chrome.tabs.get(3); return [t.active, t.highlighted, t.selected, t.index, t.width, t.height, t.mutedInfo.muted].join()") as? String
        #expect(tab == "true,true,true,2,1280,800,false")
    }

    @Test(arguments: [Browser.Profile.safari, .chromium])
    func queryHonoursEveryFilter(_ profile: Browser.Profile) throws {
        let (browser, worker) = try make(profile)
        let ids = { (filter: String) throws -> String in
            try Support.await(browser, worker, "return (await chrome.tabs.query(\(filter))).map((t) => t.id).join()") as? String ?? "?"
        }
        _ = try Support.await(browser, worker, "await chrome.tabs.update(1, { pinned: true }); await chrome.tabs.update(2, { muted: true })")
        #expect(try ids("{ pinned: true }") == "1")
        #expect(try ids("{ pinned: false }") == "2,3")
        #expect(try ids("{ muted: true }") == "2")
        #expect(try ids("{ audible: true }") == "")
        #expect(try ids("{ highlighted: true }") == "3")
        #expect(try ids("{ status: 'complete' }") == "1,2,3")
        #expect(try ids("{ title: '* news' }") == "1,3")
        #expect(try ids("{ title: 'Bet?' }") == "2")
        #expect(try ids("{ url: ['https://a.example/*', 'https://c.example/*'] }") == "1,3")
        #expect(try ids("{ index: 0 }") == "1", "the pinned tab went first")
        #expect(try ids("{ windowType: 'popup' }") == "")
        #expect(try ids("{ windowId: -2, active: false }") == "1,2")
        if profile == .safari {
            #expect(try ids("{ hidden: true }") == "1,2", "Safari's hidden is every tab not in front")
        } else {
            #expect(try ids("{ groupId: -1 }") == "1,2,3")
            #expect(try ids("{ discarded: false, autoDiscardable: true }") == "1,2,3")
        }
    }

    @Test func urlAndTitleFiltersMatchOnlyTabsTheExtensionMaySee() throws {
        let folder = try Support.extensionFolder("no-tabs-permission", [
            "manifest.json": #"{"manifest_version": 3, "name": "Plain", "version": "1", "background": {"service_worker": "w.js"}, "host_permissions": ["https://a.example/*"]}"#,
            "w.js": "",
        ])
        let browser = try Support.emptyBrowser(profile: .safari)
        browser.pageSource = { Self.pages[$0] }
        let host = try browser.install(try ExtensionBundle(folder: folder))
        browser.setSitePermission(.always, for: "a.example")
        for url in Self.pages.keys.sorted() { try browser.openTab(url: url) }
        try browser.loop.runUntilIdle()
        let worker = try #require(host.backgroundWorld)
        let answer = try Support.await(browser, worker, """
            const all = await browser.tabs.query({ url: '<all_urls>' });
            const titled = await browser.tabs.query({ title: '*' });
            const seen = (await browser.tabs.query({})).map((t) => t.id + ':' + (t.url ?? '-'));
            return [all.map((t) => t.id).join(), titled.map((t) => t.id).join(), seen.join(' ')].join('|');
            """) as? String
        #expect(answer == "1|1|1:https://a.example/ 2:- 3:-")
    }

    @Test(arguments: [Browser.Profile.safari, .chromium])
    func createAndUpdateKeepPinnedTabsFirstAndFireTheirEvents(_ profile: Browser.Profile) throws {
        let (browser, worker) = try make(profile)
        let result = try Support.await(browser, worker, """
            const events = [];
            chrome.tabs.onMoved.addListener((id, info) => events.push('moved ' + id + ' ' + info.fromIndex + '->' + info.toIndex));
            chrome.tabs.onUpdated.addListener((id, change) => events.push('updated ' + id + ' ' + JSON.stringify(change)));
            chrome.tabs.onHighlighted.addListener((info) => events.push('highlighted ' + info.tabIds.join()));
            await chrome.tabs.update(3, { pinned: true });
            const made = await chrome.tabs.create({ url: 'https://a.example/', index: 0, active: false, openerTabId: 2 });
            const pinnedMade = await chrome.tabs.create({ url: 'https://b.example/', index: 9, pinned: true, active: false });
            await chrome.tabs.update(1, { active: true });
            const order = (await chrome.tabs.query({})).sort((x, y) => x.index - y.index).map((t) => t.id + (t.pinned ? 'p' : ''));
            return JSON.stringify({ events: events.filter((e) => !e.includes('status') && !e.includes('"url"')), order, made: [made.index, made.openerTabId], pinnedMade: pinnedMade.index });
            """) as? String
        #expect(result == #"{"events":["moved 3 2->0","updated 3 {\"pinned\":true}","highlighted 1"],"order":["3p","5p","4","1","2"],"made":[1,2],"pinnedMade":1}"#,
                "pinning moved tab 3 to the front; an unpinned tab asked for index 0 goes after the pinned; a pinned one asked for 9 goes to the pinned edge")
    }

    @Test func chromeHighlightsByIndexAndActivatesTheFirst() throws {
        let (browser, worker) = try make(.chromium)
        let result = try Support.await(browser, worker, """
            const events = [];
            chrome.tabs.onHighlighted.addListener((info) => events.push('highlighted ' + info.tabIds.join() + ' in ' + info.windowId));
            chrome.tabs.onActivated.addListener((info) => events.push('activated ' + info.tabId));
            const window = await chrome.tabs.highlight({ tabs: [0, 2] });
            const highlighted = (await chrome.tabs.query({ highlighted: true })).map((t) => t.id).join();
            let missing;
            try { await chrome.tabs.highlight({ tabs: [7] }); } catch (e) { missing = e.message; }
            await chrome.tabs.update(2, { highlighted: true });
            const more = (await chrome.tabs.query({ highlighted: true })).map((t) => t.id).join();
            return JSON.stringify({ events, highlighted, tabs: window.tabs.length, missing, more });
            """) as? String
        #expect(result == #"{"events":["activated 1","highlighted 1,3 in 1","highlighted 1,2,3 in 1"],"highlighted":"1,3","tabs":3,"missing":"No tab at index: 7.","more":"1,2,3"}"#)
    }

    @Test func chromeMovesTabsBetweenWindowsWithDetachAndAttach() throws {
        let (browser, worker) = try make(.chromium)
        let result = try Support.await(browser, worker, """
            const events = [];
            chrome.tabs.onDetached.addListener((id, info) => events.push('detached ' + id + ' from ' + info.oldWindowId + '@' + info.oldPosition));
            chrome.tabs.onAttached.addListener((id, info) => events.push('attached ' + id + ' to ' + info.newWindowId + '@' + info.newPosition));
            chrome.tabs.onMoved.addListener((id, info) => events.push('moved ' + id));
            chrome.windows.onRemoved.addListener((id) => events.push('window removed ' + id));
            const second = await chrome.windows.create({ url: 'https://a.example/' });
            const [lone] = second.tabs;
            await chrome.tabs.move(3, { windowId: second.id, index: 0 });
            const there = (await chrome.tabs.query({ windowId: second.id })).map((t) => t.id + (t.active ? '*' : '')).join();
            const here = (await chrome.tabs.query({ windowId: 1, active: true })).map((t) => t.id).join();
            await chrome.tabs.move([lone.id, 3], { windowId: 1, index: -1 });
            const windows = (await chrome.windows.getAll()).map((w) => w.id).join();
            return JSON.stringify({ events, there, here, windows });
            """) as? String
        #expect(result == #"{"events":["detached 3 from 1@2","attached 3 to 2@0","detached 4 from 2@1","attached 4 to 1@2","detached 3 from 2@0","window removed 2","attached 3 to 1@3"],"there":"3,4*","here":"2","windows":"1"}"#,
                "the active tab 3 left window 1, whose next tab became active; moving window 2's last tab closed it")
    }

    @Test func chromeGroupsAndUngroupsTabs() throws {
        let (browser, worker) = try make(.chromium)
        let result = try Support.await(browser, worker, """
            const events = [];
            chrome.tabs.onUpdated.addListener((id, change) => { if ('groupId' in change) events.push(id + ' group ' + change.groupId); });
            await chrome.tabs.update(3, { pinned: true });
            const group = await chrome.tabs.group({ tabIds: [1, 3] });
            const joined = await chrome.tabs.group({ tabIds: 2, groupId: group });
            const members = (await chrome.tabs.query({ groupId: group })).map((t) => t.id + '@' + t.index + (t.pinned ? 'p' : '')).join();
            let missing;
            try { await chrome.tabs.group({ tabIds: 2, groupId: 99 }); } catch (e) { missing = e.message; }
            await chrome.tabs.ungroup([1, 2]);
            const left = (await chrome.tabs.query({ groupId: group })).map((t) => t.id).join();
            return JSON.stringify({ group, joined, events, members, missing, left });
            """) as? String
        #expect(result == #"{"group":1,"joined":1,"events":["1 group 1","3 group 1","2 group 1","1 group -1","2 group -1"],"members":"1@0,3@1,2@2","missing":"No group with id: 99.","left":"3"}"#,
                "the pinned tab 3 was unpinned and placed beside tab 1")
    }

    @Test func chromeDiscardsOnlyBackgroundTabsUntilTheyAreShown() throws {
        let (browser, worker) = try make(.chromium)
        let result = try Support.await(browser, worker, """
            const refused = await chrome.tabs.discard(3).catch((e) => e.message);
            const tab = await chrome.tabs.discard(1);
            const unloaded = (await chrome.tabs.query({ status: 'unloaded' })).map((t) => t.id).join();
            await chrome.tabs.update(1, { active: true });
            const after = (await chrome.tabs.get(1)).discarded;
            return JSON.stringify({ refused, discarded: tab.discarded, unloaded, after });
            """) as? String
        #expect(result == #"{"refused":"Cannot discard tab with id: 3.","discarded":true,"unloaded":"1","after":false}"#)
    }

    @Test func safariTogglesReaderOnArticlesOnly() throws {
        let (browser, worker) = try make(.safari)
        let result = try Support.await(browser, worker, """
            const events = [];
            browser.tabs.onUpdated.addListener((id, change) => { if ('isInReaderMode' in change) events.push(id + ' reader ' + change.isInReaderMode); });
            const article = await browser.tabs.get(2);
            const refused = await browser.tabs.toggleReaderMode(1).catch((e) => e.message);
            await browser.tabs.toggleReaderMode(2);
            const on = (await browser.tabs.get(2)).isInReaderMode;
            await browser.tabs.update(2, { url: 'https://b.example/' });
            return JSON.stringify({ isArticle: [article.isArticle, (await browser.tabs.get(1)).isArticle], refused, on, events });
            """) as? String
        try browser.loop.runUntilIdle()
        #expect(result == #"{"isArticle":[true,false],"refused":"Invalid call to tabs.toggleReaderMode(). Reader is not available for this page.","on":true,"events":["2 reader true","2 reader false"]}"#)
        #expect(browser.tab(2)?.isInReaderMode == false, "a new page leaves Reader")
    }

    @Test func eachBrowserHasItsOwnTabsMethods() throws {
        let (_, safari) = try make(.safari)
        let (_, chrome) = try make(.chromium)
        let names = "['move', 'discard', 'highlight', 'group', 'ungroup', 'toggleReaderMode', 'onHighlighted', 'onAttached', 'onDetached', 'onReplaced'].map((n) => typeof chrome.tabs[n]).join()"
        #expect(try Support.eval(safari, names) as? String == "undefined,undefined,undefined,undefined,undefined,function,object,object,object,object")
        #expect(try Support.eval(chrome, names) as? String == "function,function,function,function,function,undefined,object,object,object,object")
    }
}
