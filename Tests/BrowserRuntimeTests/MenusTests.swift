import BrowserRuntime
import Foundation
import TestSupport
import Testing
import WebRuntime

/// `contextMenus` / `menus` (issue 23, point 1): items made, updated and removed with each
/// browser's checks, and a click on one (Browser.clickMenuItem, the scenario's contextMenu step)
/// firing onClicked with the clicked element's info.
@Suite struct MenusTests {
    func browser(_ profile: Browser.Profile) throws -> (Browser, ExtensionHost, World) {
        let browser = try Support.emptyBrowser(profile: profile)
        browser.pageSource = { $0 == "https://a.example/" ? "<a id=l href='/story'>story</a><img id=i src='/pic.png'>" : nil }
        let folder = try Support.extensionFolder("menus", [
            "manifest.json": #"{"manifest_version": 3, "name": "Menus", "version": "1", "background": {"service_worker": "w.js"}, "permissions": ["contextMenus", "menus"]}"#,
            "w.js": "globalThis.clicks = []; chrome.contextMenus.onClicked.addListener((info, tab) => clicks.push(JSON.stringify(info) + ' tab ' + tab.id));",
        ])
        let host = try browser.install(try ExtensionBundle(folder: folder))
        try browser.loop.runUntilIdle()
        return (browser, host, try #require(host.backgroundWorld))
    }

    @Test(arguments: [Browser.Profile.safari, .chromium])
    func itemsAreMadeAtOnceAndRefusedLaterAsEachBrowserRefusesThem(_ profile: Browser.Profile) throws {
        let (browser, _, worker) = try browser(profile)
        let chromium = profile == .chromium
        let made = try Support.await(browser, worker, """
            const id = chrome.contextMenus.create({ id: 'save', title: 'Save link', contexts: ['link'] });
            const errors = [];
            await new Promise((done) => chrome.contextMenus.create({ id: 'save', title: 'Again' }, () => { errors.push(chrome.runtime.lastError.message); done(); }));
            await new Promise((done) => chrome.contextMenus.create({ id: 'child', title: 'Child', parentId: 'nope' }, () => { errors.push(chrome.runtime.lastError.message); done(); }));
            try { await chrome.contextMenus.update('missing', { title: 'x' }); } catch (e) { errors.push(e.message); }
            return id + '|' + errors.join('|');
            """) as? String
        #expect(made == (chromium
            ? "save|Cannot create item with duplicate id save|Cannot find menu item with id nope|Cannot find menu item with id missing"
            : "save|Invalid call to contextMenus.create(). Identifier is already used.|Invalid call to contextMenus.create(). Parent menu item not found.|Invalid call to contextMenus.update(). Menu item not found."))
    }

    @Test func safariMakesIdsAndChromeNeedsThem() throws {
        let (safari, _, safariWorker) = try browser(.safari)
        let ids = try Support.eval(safariWorker, "[chrome.contextMenus.create({ title: 'A' }), chrome.contextMenus.create({ title: 'B' }), typeof chrome.contextMenus.create({ id: '12', title: 'N' })].join()") as? String
        let parts = ids?.split(separator: ",").map(String.init) ?? []
        #expect(parts.count == 3 && parts[0] != parts[1] && parts[0].count == 36 && parts[2] == "number", "\(ids ?? "")")
        #expect(try Support.eval(safariWorker, "typeof browser.menus.create") as? String == "function")
        let thrown = try Support.eval(safariWorker, "try { browser.menus.create({ title: 'x', type: 'toggle' }); 'made' } catch (e) { e.message }") as? String
        #expect(thrown == "Invalid call to menus.create(). The 'type' value is invalid, because it must specify either 'normal', 'checkbox', 'radio', or 'separator'.")
        let (chrome, _, chromeWorker) = try browser(.chromium)
        #expect(try Support.eval(chromeWorker, "typeof chrome.menus") as? String == "undefined")
        let refused = try Support.await(chrome, chromeWorker, "return await new Promise((done) => chrome.contextMenus.create({ title: 'A' }, () => done(chrome.runtime.lastError.message)))") as? String
        #expect(refused == "Extensions using event pages or Service Workers must pass an id parameter to chrome.contextMenus.create")
        let schema = try Support.eval(chromeWorker, "try { chrome.contextMenus.create({ id: 'x', title: 'x', contexts: ['launcherz'] }); 'made' } catch (e) { e.constructor.name }") as? String
        #expect(schema == "TypeError")
    }

    @Test(arguments: [Browser.Profile.safari, .chromium])
    func aClickFiresOnClickedWithTheElementsInfo(_ profile: Browser.Profile) throws {
        let (browser, host, worker) = try browser(profile)
        let tab = try browser.openTab(url: "https://a.example/")
        try browser.loop.runUntilIdle()
        _ = try Support.await(browser, worker, """
            chrome.contextMenus.create({ id: 'save', title: 'Save link', contexts: ['link'] });
            chrome.contextMenus.create({ id: 'flag', title: 'Flag', type: 'checkbox', contexts: ['all'] });
            await chrome.contextMenus.update('flag', { checked: true });
            """)
        try browser.clickMenuItem("save", of: host, on: MenuTarget(linkURL: "https://a.example/story"))
        try browser.clickMenuItem("flag", of: host, on: MenuTarget(selectionText: "hello"))
        try browser.loop.runUntilIdle()
        let clicks = try Support.eval(worker, "clicks.join('|')") as? String
        #expect(clicks == #"{"editable":false,"frameId":0,"linkUrl":"https://a.example/story","menuItemId":"save","pageUrl":"https://a.example/"} tab \#(tab.id)|"#
            + #"{"checked":false,"editable":false,"frameId":0,"menuItemId":"flag","pageUrl":"https://a.example/","selectionText":"hello","wasChecked":true} tab \#(tab.id)"#)
        // A link item is not in the menu of the page itself.
        #expect(throws: BrowserError.self) { try browser.clickMenuItem("save", of: host) }
        _ = try Support.await(browser, worker, "await chrome.contextMenus.removeAll()")
        #expect(throws: BrowserError.self) { try browser.clickMenuItem("flag", of: host) }
    }

    @Test func radioItemsUncheckTheirNeighbours() throws {
        let (browser, host, worker) = try browser(.safari)
        _ = try browser.openTab(url: "https://a.example/")
        _ = try Support.eval(worker, "for (const id of ['r1', 'r2', 'r3']) chrome.contextMenus.create({ id, title: id, type: 'radio', checked: id === 'r1' })")
        try browser.loop.runUntilIdle()
        try browser.clickMenuItem("r3", of: host)
        try browser.clickMenuItem("r3", of: host)
        try browser.loop.runUntilIdle()
        let checks = try Support.eval(worker, "clicks.map((c) => JSON.parse(c.split(' tab ')[0])).map((i) => i.menuItemId + ':' + i.wasChecked + '>' + i.checked).join()") as? String
        #expect(checks == "r3:false>true,r3:true>true")
    }
}
