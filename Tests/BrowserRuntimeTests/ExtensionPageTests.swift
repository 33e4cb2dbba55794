import BrowserRuntime
import Foundation
import TestSupport
import Testing
import WebRuntime

/// Extension pages anywhere (issue 22, point 5): tabs and windows an extension opens on its own
/// pages, the options page, extension pages in frames, and the windows they live in.
@Suite struct ExtensionPageTests {
    func browser(_ profile: Browser.Profile = .safari, pages: [String: String] = ["https://a.example/": "<title>A</title><p>a</p>"]) throws -> (Browser, ExtensionHost) {
        let browser = try Support.emptyBrowser(profile: profile)
        browser.pageSource = { pages[$0] }
        let host = try browser.install(try ExtensionBundle(folder: Support.fixtures.appendingPathComponent("extensions/extension-pages")))
        try browser.loop.runUntilIdle()
        return (browser, host)
    }

    @Test(arguments: [Browser.Profile.safari, .chromium])
    func aPageTheExtensionOpensIsOneOfItsContexts(_ profile: Browser.Profile) throws {
        let (browser, host) = try browser(profile)
        _ = try browser.openTab(url: "https://a.example/")
        let worker = try #require(host.backgroundWorld)
        let created = try Support.await(browser, worker, "const tab = await chrome.tabs.create({ url: 'manager.html' }); return tab.url + ' ' + tab.id") as? String
        #expect(created == host.bundle.url("manager.html") + " 2")
        try browser.loop.runUntilIdle()
        let tab = try #require(browser.extensionOpenedTab("1"))
        #expect(tab.openedBy == host.id && browser.extensionOpenedTab("manager.html") === tab && browser.activeTab === tab)
        let page = try #require(tab.page)
        // The page has the extension's API, as its background does, and knows its tab.
        #expect(try Support.eval(page.pageWorld, "typeof chrome.storage.session.get + ' ' + typeof chrome.windows.create") as? String == "function function")
        #expect(try Support.await(browser, page.pageWorld, "return (await chrome.tabs.getCurrent()).id") as? Double == 2)
        #expect(try Support.await(browser, worker, "return String(await chrome.tabs.getCurrent())") as? String == "undefined")
        #expect(page.contentWorlds.isEmpty)
        // Its messages carry its tab, as a content script's do.
        try worker.evaluate("chrome.runtime.onMessage.addListener((m, sender, reply) => { reply(sender.tab.id + ' ' + sender.frameId + ' ' + sender.url); })", sourceURL: "test.js")
        let sender = try Support.await(browser, page.pageWorld, "return await chrome.runtime.sendMessage('who')") as? String
        #expect(sender == "2 0 " + host.bundle.url("manager.html"))
    }

    @Test func relativeURLsResolveAsEachBrowserResolvesThem() throws {
        for profile in [Browser.Profile.safari, .chromium] {
            let (browser, host) = try browser(profile)
            _ = try browser.openTab(url: host.bundle.url("manager.html"))
            try browser.loop.runUntilIdle()
            let page = try #require(browser.activeTab?.page)
            let url = try Support.await(browser, page.pageWorld, "return (await chrome.tabs.create({ url: 'report.html?x=1' })).url") as? String
            #expect(url == host.bundle.url("report.html?x=1"))
            let bad = try Support.await(browser, page.pageWorld, "try { await chrome.tabs.create({ url: 'http://[bad' }); return 'created' } catch (e) { return e.message }") as? String
            #expect(bad == (profile == .chromium ? "Invalid url: \"http://[bad\"." : "Invalid call to tabs.create(). The 'url' value is invalid, because 'http://[bad' is not a valid URL."), "\(bad ?? "")")
        }
    }

    @Test func theOptionsPageOpensAsEachBrowserOpensIt() throws {
        let (safari, host) = try browser()
        _ = try safari.openTab(url: "https://a.example/")
        try safari.openOptionsPage(of: host)
        try safari.openOptionsPage(of: host)
        // Safari opens a new tab each time; Chrome brings the open one to the front.
        #expect(safari.tabs.filter { $0.url == host.bundle.url("options.html") }.count == 2)
        let (chrome, chromeHost) = try browser(.chromium)
        _ = try chrome.openTab(url: "https://a.example/")
        let first = try chrome.openOptionsPage(of: chromeHost)
        _ = try chrome.openTab(url: "https://a.example/")
        #expect(try chrome.openOptionsPage(of: chromeHost) === first && chrome.activeTab === first)
        #expect(chrome.tabs.count == 3)
        #expect(chromeHost.bundle.manifest.options?.page == "options.html" && chromeHost.bundle.manifest.options?.openInTab == true)
    }

    @Test func withoutAnOptionsPageTheCallFailsInTheBrowsersWords() throws {
        for (profile, message) in [(Browser.Profile.safari, "Invalid call to runtime.openOptionsPage(). No options page is specified in the manifest."),
                                   (.chromium, "Could not create an options page.")] {
            let browser = try Browser(options: { var o = Browser.Options(); o.profile = profile; return o }())
            let host = try browser.install(try Support.sampleExtension())
            try browser.loop.runUntilIdle()
            let worker = try #require(host.backgroundWorld)
            let error = try Support.await(browser, worker, "try { await chrome.runtime.openOptionsPage(); return 'opened' } catch (e) { return e.message }") as? String
            #expect(error == message)
        }
    }

    @Test func windowCloseInAnExtensionTabClosesTheTabAfterTheScript() throws {
        let (browser, host) = try browser()
        let web = try browser.openTab(url: "https://a.example/")
        let options = try browser.openOptionsPage(of: host)
        try browser.loop.runUntilIdle()
        let page = try #require(options.page)
        #expect(try Support.eval(page.pageWorld, "window.close(); 'ran on'") as? String == "ran on")
        #expect(browser.tab(options.id) != nil)
        try browser.loop.runUntilIdle()
        #expect(browser.tab(options.id) == nil && browser.activeTab === web)
        // A web page's window.close() is the page's own (no tab closes).
        _ = try Support.eval(try #require(web.page).pageWorld, "typeof window.close === 'function' && window.close()")
        try browser.loop.runUntilIdle()
        #expect(browser.tab(web.id) != nil)
    }

    @Test func aMissingPageOpensABrowserErrorPage() throws {
        let (browser, host) = try browser()
        let tab = try browser.openTab(url: host.bundle.url("nope.html"))
        try browser.loop.runUntilIdle()
        #expect(tab.title == "File not found")
        #expect(browser.trace.dump(channels: [.navigation]).contains("no such file in Extension Pages Sample"))
    }

    @Test func windowsOpenFocusAndCloseWithTheirEvents() throws {
        let (browser, host) = try browser()
        _ = try browser.openTab(url: "https://a.example/")
        let worker = try #require(host.backgroundWorld)
        try worker.evaluate("""
            globalThis.seen = [];
            for (const name of ['onCreated', 'onRemoved', 'onFocusChanged']) chrome.windows[name].addListener((w) => seen.push(name + ' ' + (w.id ?? w)));
            chrome.tabs.onCreated.addListener((tab) => seen.push('tab ' + tab.id + ' in ' + tab.windowId));
            chrome.tabs.onRemoved.addListener((id, info) => seen.push('removed ' + id + ' ' + info.isWindowClosing));
            """, sourceURL: "test.js")
        let made = try Support.await(browser, worker, """
            const w = await chrome.windows.create({ url: ['report.html', 'https://a.example/'], type: 'popup' });
            return w.id + ' ' + w.type + ' ' + w.tabs.map((t) => t.active).join() + ' ' + (await chrome.windows.getCurrent()).id;
            """) as? String
        #expect(made == "2 popup true,false 2")
        let current = try Support.await(browser, worker, "return (await chrome.tabs.query({ active: true, currentWindow: true })).map((t) => t.id + ':' + t.windowId).join()") as? String
        #expect(current == "2:2")
        let all = try Support.await(browser, worker, "return (await chrome.tabs.query({ active: true })).map((t) => t.id).join()") as? String
        #expect(all == "1,2")
        let missing = try Support.await(browser, worker, "try { await chrome.windows.get(9) } catch (e) { return e.message }") as? String
        #expect(missing == "Invalid call to windows.get(). Window not found.")
        _ = try Support.await(browser, worker, "await chrome.windows.remove(2)")
        try browser.loop.runUntilIdle()
        #expect(browser.windows.map(\.id) == [1] && browser.focusedWindow?.id == 1)
        let seen = try Support.eval(worker, "seen.join('|')") as? String
        #expect(seen == "tab 1 in 1|onCreated 2|onFocusChanged 2|tab 2 in 2|tab 3 in 2|removed 3 true|removed 2 true|onRemoved 2|onFocusChanged 1", "\(seen ?? "")")
    }

    /// A window's state and bounds as windows.create and windows.update set them, refused in
    /// each browser's words (Safari: WebExtensionAPIWindowsCocoa.mm in the caller; Chrome: its
    /// schema's types in the bindings, windows_api.cc's "Invalid value for state"), with Chrome's
    /// onBoundsChanged; focused: false brings another window to the front.
    @Test(arguments: [Browser.Profile.safari, .chromium])
    func windowsKeepTheirStateAndBoundsAndRefuseWhatEachBrowserRefuses(profile: Browser.Profile) throws {
        let (browser, host) = try browser(profile)
        _ = try browser.openTab(url: "https://a.example/")
        let worker = try #require(host.backgroundWorld)
        try worker.evaluate("""
            globalThis.seen = [];
            if (chrome.windows.onBoundsChanged) chrome.windows.onBoundsChanged.addListener((w) => seen.push('bounds ' + w.id + ' ' + [w.left, w.top, w.width, w.height].join()));
            chrome.windows.onFocusChanged.addListener((id) => seen.push('focus ' + id));
            """, sourceURL: "test.js")
        let made = try Support.await(browser, worker, """
            const w = await chrome.windows.create({ url: 'https://a.example/', left: 40, top: 30, width: 600, height: 400 });
            const moved = await chrome.windows.update(w.id, { left: 100, width: 700 });
            const same = await chrome.windows.update(w.id, { left: 100 });
            const max = await chrome.windows.update(w.id, { state: 'maximized' });
            return [w.left, w.top, w.width, w.height, w.state, moved.left, moved.top, moved.width, moved.height, same.left, max.state, (await chrome.windows.get(w.id)).state].join();
            """) as? String
        #expect(made == "40,30,600,400,normal,100,30,700,400,100,maximized,maximized")
        // Unfocusing the window in front brings the other one to the front.
        let behind = try Support.await(browser, worker, "await chrome.windows.update(2, { focused: false }); return (await chrome.windows.getLastFocused()).id") as? Double
        #expect(behind == 1)
        let seen = try Support.eval(worker, "seen.join('|')") as? String
        #expect(seen == (profile == .chromium ? "focus 2|bounds 2 100,30,700,400|focus 1" : "focus 2|focus 1"))
        func refusal(_ call: String) throws -> String? {
            try Support.await(browser, worker, "try { await \(call); return 'accepted' } catch (e) { return e.constructor.name + ': ' + e.message }") as? String
        }
        if profile == .chromium {
            #expect(try refusal("chrome.windows.update(1, { state: 'minimized', left: 5 })") == "Error: Invalid value for state")
            #expect(try refusal("chrome.windows.update(1, { state: 'minimized', focused: true })") == "Error: Invalid value for state")
            #expect(try refusal("chrome.windows.update(1, { left: '5' })") == "TypeError: Error in invocation of windows.update(integer windowId, windows.UpdateInfo updateInfo, optional function callback): Error at parameter 'updateInfo': Error at property 'left': Invalid type: expected integer, found string.")
            #expect(try refusal("chrome.windows.update(1, { state: 'docked' })") == "TypeError: Error in invocation of windows.update(integer windowId, windows.UpdateInfo updateInfo, optional function callback): Error at parameter 'updateInfo': Error at property 'state': Value must be one of fullscreen, locked-fullscreen, maximized, minimized, normal.")
            #expect(try refusal("chrome.windows.create({ width: 1.5 })") == "TypeError: Error in invocation of windows.create(optional windows.CreateData createData, optional function callback): Error at parameter 'createData': Error at property 'width': Invalid type: expected integer, found number.")
        } else {
            #expect(try refusal("chrome.windows.update(1, { state: 'minimized', left: 5 })") == "Error: Invalid call to windows.update(). The 'properties' value is invalid, because when 'top', 'left', 'width', or 'height' are specified, 'state' must specify 'normal'.")
            #expect(try refusal("chrome.windows.update(1, { left: '5' })") == "Error: Invalid call to windows.update(). The 'properties' value is invalid, because 'left' is expected to be a number, but a string was provided.")
            #expect(try refusal("chrome.windows.update(1, { state: 'docked' })") == "Error: Invalid call to windows.update(). The 'state' value is invalid, because it must specify 'normal', 'minimized', 'maximized', or 'fullscreen'.")
            #expect(try refusal("chrome.windows.update(-1, {})") == "Error: Invalid call to windows.update(). The 'windowId' value is invalid, because 'windows.WINDOW_ID_NONE' is not allowed.")
            #expect(try refusal("chrome.windows.create({ state: 'fullscreen', height: 5 })") == "Error: Invalid call to windows.create(). The 'info' value is invalid, because when 'top', 'left', 'width', or 'height' are specified, 'state' must specify 'normal'.")
        }
        // Nothing refused changed a window.
        #expect(browser.windows.map { "\($0.id) \($0.state) \($0.bounds.left)" } == ["1 normal 0", "2 maximized 100"])
    }

    /// runtime.getBackgroundPage and extension.getBackgroundPage hand an extension page the
    /// background page's window in Safari (runtime's loading an unloaded one first), null for a
    /// service worker; Chrome's Manifest V3 has no background page.
    @Test(arguments: [Browser.Profile.safari, .chromium])
    func theBackgroundPageIsHandedOverWhereThereIsOne(profile: Browser.Profile) throws {
        func install(_ background: String) throws -> (Browser, ExtensionHost) {
            let browser = try Support.emptyBrowser(profile: profile)
            let folder = try Support.extensionFolder("background-page", [
                "manifest.json": #"{"manifest_version": 3, "name": "BG", "version": "1", "background": \#(background), "action": {"default_popup": "popup.html"}}"#,
                "bg.js": "globalThis.marker = 'from the background'; globalThis.count = (globalThis.count || 0) + 1;",
                "popup.html": "<!DOCTYPE html><title>Popup</title><p>popup</p>",
            ])
            let host = try browser.install(try ExtensionBundle(folder: folder))
            browser.pageSource = { _ in "<title>A</title><p>a</p>" }
            _ = try browser.openTab(url: "https://a.example/")
            try browser.loop.runUntilIdle()
            return (browser, host)
        }
        let (browser, host) = try install(#"{"scripts": ["bg.js"]}"#)
        let popup = try browser.openPopup(host)
        let read = """
            const viaRuntime = await chrome.runtime.getBackgroundPage().then((w) => w, (e) => e.message);
            const viaExtension = chrome.extension.getBackgroundPage();
            return [typeof viaRuntime === 'object' && viaRuntime !== null ? viaRuntime.marker : String(viaRuntime), viaExtension === null ? 'null' : viaExtension === viaRuntime].join();
            """
        let fromPopup = try Support.await(browser, popup.pageWorld, read) as? String
        #expect(fromPopup == (profile == .safari ? "from the background,true" : "You do not have a background page.,null"))
        if profile == .safari {
            // An unloaded background page: extension.getBackgroundPage has none; runtime's loads it.
            browser.suspendBackground(of: host)
            #expect(try Support.eval(popup.pageWorld, "String(chrome.extension.getBackgroundPage())") as? String == "null")
            let woken = try Support.await(browser, popup.pageWorld, "const w = await chrome.runtime.getBackgroundPage(); return w.marker + ' ' + w.count") as? String
            #expect(woken == "from the background 1")
            #expect(browser.trace.dump(channels: [.api]).contains("runtime.getBackgroundPage -> the background page's window"))
        } else {
            // Foreground only in Chrome: the service worker has neither.
            let worker = try #require(host.backgroundWorld)
            #expect(try Support.eval(worker, "typeof chrome.runtime.getBackgroundPage + ' ' + typeof chrome.extension.getBackgroundPage") as? String == "undefined undefined")
        }
        // A service worker has no window.
        let (workerBrowser, workerHost) = try install(#"{"service_worker": "bg.js"}"#)
        let workerPopup = try workerBrowser.openPopup(workerHost)
        let none = try Support.await(workerBrowser, workerPopup.pageWorld, read) as? String
        #expect(none == (profile == .safari ? "null,null" : "You do not have a background page.,null"))
    }

    @Test func closingAWindowsLastTabClosesTheWindow() throws {
        let (browser, host) = try browser(.chromium)
        _ = try browser.openTab(url: "https://a.example/")
        let window = try browser.openWindow(urls: [host.bundle.url("report.html")], openedBy: host)
        #expect(browser.focusedWindow === window)
        let missing = try Support.await(browser, try #require(host.backgroundWorld), "try { await chrome.windows.get(7) } catch (e) { return e.message }") as? String
        #expect(missing == "No window with id: 7.")
        browser.close(try #require(browser.tabs(in: window).first))
        #expect(browser.windows.map(\.id) == [1] && browser.focusedWindow?.id == 1)
    }

    @Test func theOpenPopoverClosesWhenItsTabLosesTheFront() throws {
        let (browser, host) = try browser()
        _ = try browser.openTab(url: "https://a.example/")
        let popup = try browser.openPopup(host)
        try browser.loop.runUntilIdle()
        // The popup's own click handler runs to its end; the popover closes after it.
        _ = try Support.eval(popup.pageWorld, "document.getElementById('manage').click()")
        #expect(browser.popup(of: host) === popup)
        try browser.loop.runUntilIdle()
        #expect(browser.popup(of: host) == nil && browser.activeTab?.url == host.bundle.url("manager.html"))
        #expect(browser.trace.dump(channels: [.navigation]).contains("popup dismissed: the active tab changed"))
    }

    @Test func aFramedExtensionPageIsAContextOnlyWhereItMayLoad() throws {
        let (browser, host) = try browser()
        // No web_accessible_resources: a web page that frames the extension's page gets an
        // empty frame, no context.
        let framing = "<title>A</title><iframe src=\"\(host.bundle.url("manager.html"))\"></iframe>"
        browser.pageSource = { $0 == "https://a.example/" ? framing : nil }
        let web = try browser.openTab(url: "https://a.example/")
        try browser.loop.runUntilIdle()
        let webFrame = try #require(web.frames.values.first { $0.id != 0 }?.page)
        #expect(try Support.eval(webFrame.pageWorld, "document.title + typeof chrome") as? String == "undefined")
        // The extension's own page may frame it: the frame is a context of the extension.
        let own = try browser.openTab(url: host.bundle.url("options.html"))
        try browser.loop.runUntilIdle()
        try #require(own.page).pageWorld.evaluate("const f = document.createElement('iframe'); f.src = 'manager.html'; document.body.append(f)", sourceURL: "test.js")
        try browser.loop.runUntilIdle()
        let framed = try #require(own.frames.values.first { $0.id != 0 }?.page)
        #expect(try Support.eval(framed.pageWorld, "document.title + ' ' + typeof chrome.storage.local.get") as? String == "Manager function")
    }
}

/// Manifest V3's Content Security Policy for extension pages: no eval, no inline scripts.
@Suite struct ExtensionPagePolicyTests {
    @Test(arguments: [Browser.Profile.safari, .chromium])
    func extensionPagesRefuseEvalAndInlineScripts(_ profile: Browser.Profile) throws {
        let browser = try Support.emptyBrowser(profile: profile)
        let host = try browser.install(try ExtensionBundle(folder: Support.fixtures.appendingPathComponent("extensions/extension-pages")))
        try browser.loop.runUntilIdle()
        let worker = try #require(host.backgroundWorld)
        let refused = try Support.eval(worker, "try { eval('1'); 'ran' } catch (e) { e.name + ': ' + e.message }") as? String
        #expect(refused?.hasPrefix("EvalError: Refused to evaluate a string as JavaScript because 'unsafe-eval' is not an allowed source of script") == true, "\(refused ?? "")")
        #expect(try Support.eval(worker, "try { new Function('return 1')(); 'ran' } catch (e) { e.name }") as? String == "EvalError")
        // An inline script in a page of the extension, parsed or inserted, does not run.
        browser.pageSource = { _ in nil }
        let tab = try browser.openTab(url: host.bundle.url("manager.html"))
        try browser.loop.runUntilIdle()
        let page = try #require(tab.page)
        try page.pageWorld.evaluate("const s = document.createElement('script'); s.textContent = 'window.inserted = true'; document.body.append(s)", sourceURL: "test.js")
        #expect(try Support.eval(page.pageWorld, "typeof window.inserted") as? String == "undefined")
        let errors = page.console.filter { $0.level == "error" }.map(\.text)
        #expect(errors.count == 1 && errors[0].hasPrefix(profile == .chromium ? "Refused to execute inline script" : "Refused to execute a script because its hash"), "\(errors)")
        // Parsed ones too, classic and module, in a page of an extension of its own.
        let folder = Support.scratchRoot.appendingPathComponent("csp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try #"{"manifest_version": 3, "name": "Inline", "version": "1"}"#.write(to: folder.appendingPathComponent("manifest.json"), atomically: true, encoding: .utf8)
        try "<script>window.a = 1</script><script type=module>window.b = 1</script><script src=ok.js></script>"
            .write(to: folder.appendingPathComponent("page.html"), atomically: true, encoding: .utf8)
        try "window.c = 1".write(to: folder.appendingPathComponent("ok.js"), atomically: true, encoding: .utf8)
        let inline = try browser.install(try ExtensionBundle(folder: folder))
        let own = try browser.openTab(url: inline.bundle.url("page.html"))
        try browser.loop.runUntilIdle()
        let ownPage = try #require(own.page)
        #expect(try Support.eval(ownPage.pageWorld, "[typeof window.a, typeof window.b, window.c].join()") as? String == "undefined,undefined,1")
        #expect(ownPage.console.filter { $0.level == "error" }.count == 2)
        // A web page keeps both.
        browser.pageSource = { $0 == "https://a.example/" ? "<script>window.inline = eval('2')</script>" : nil }
        let web = try browser.openTab(url: "https://a.example/")
        try browser.loop.runUntilIdle()
        #expect(try Support.eval(try #require(web.page).pageWorld, "window.inline") as? Double == 2)
    }
}
