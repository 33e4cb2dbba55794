import BrowserRuntime
import JSKit
import TestSupport
import Testing
import WebRuntime

@Suite struct FrameTests {
    func loaded() throws -> (Browser, ExtensionHost, Tab) {
        let (browser, host) = try Support.outlineBrowser()
        let tab = try browser.openTab(url: "https://news.test/")
        try browser.loop.runUntilIdle()
        return (browser, host, tab)
    }

    func frame(_ tab: Tab, _ url: String) throws -> Frame {
        try #require(tab.allFrames.first { $0.url == url }, "no frame \(url)")
    }

    @Test func everyIframeIsAFrameWithItsOwnIdAndDocument() throws {
        let (_, _, tab) = try loaded()
        let urls = tab.allFrames.map { "\($0.id):\($0.parentID):\($0.url)" }
        // Tree order, depth first: the nested frame loads while its parent is parsed.
        #expect(urls == ["0:-1:https://news.test/", "1:0:https://news.test/inner.html", "2:1:https://news.test/nested.html",
                         "3:0:https://ads.test/ad.html", "4:0:about:srcdoc", "5:0:about:blank", "6:0:https://tracker.test/frame.html"])
        let tracker = try frame(tab, "https://tracker.test/frame.html")
        #expect(tracker.isBlocked && tracker.page == nil)
        #expect(try frame(tab, "about:srcdoc").page.map { try Support.eval($0.pageWorld, "document.getElementById('inside').textContent") as? String } == "srcdoc body")
    }

    @Test func allFramesContentScriptsRunInEachPermittedFrameWithTheirFrameId() throws {
        let (browser, _, tab) = try loaded()
        let hellos = Support.backgroundLogs(browser).filter { $0.hasPrefix("hello from frame") }
        #expect(hellos == [
            "hello from frame 0 tab 1 https://news.test/ top",
            "hello from frame 1 tab 1 https://news.test/inner.html child",
            "hello from frame 2 tab 1 https://news.test/nested.html child",
            "hello from frame 3 tab 1 https://ads.test/ad.html child",
            "hello from frame 4 tab 1 about:srcdoc child",
            "hello from frame 5 tab 1 about:blank child",
        ])
        // Each frame has its own content world: the guard global is per frame.
        for frame in tab.allFrames where !frame.isBlocked {
            let page = try #require(frame.page)
            #expect(page.contentWorlds.count == 1, "frame \(frame.id)")
            #expect(Support.logs(page).contains(frame.id == 0 ? "marked blue" : "marked red"), "frame \(frame.id)")
        }
        // The top-only script (no all_frames) ran once, in the top frame, after load.
        let topLogs = Support.logs(try #require(tab.page))
        #expect(topLogs.contains("frames on page: 5"), "\(topLogs)")
        #expect(try frame(tab, "https://news.test/inner.html").page.map(Support.logs)?.contains { $0.hasPrefix("frames on page") } == false)
    }

    @Test func withoutAllFramesOrMatchAboutBlankChildFramesGetNothing() throws {
        // Sample Notes' content script has neither all_frames nor match_about_blank.
        var pages = Support.framedPages
        pages["https://news.example/"] = "<iframe src='https://news.example/inner'></iframe><iframe srcdoc='<p>x</p>'></iframe>"
        let (browser, _) = try Support.browser(pages: pages)
        let tab = try browser.openTab(url: "https://news.example/")
        try browser.loop.runUntilIdle()
        #expect(tab.allFrames.count == 3)
        #expect(tab.page?.contentWorlds.count == 1)
        for frame in tab.allFrames where frame.id != 0 { #expect(frame.page?.contentWorlds.isEmpty == true) }
    }

    @Test func sameOriginFramesAreReachableAndCrossOriginOnesAreNot() throws {
        let (_, _, tab) = try loaded()
        let top = try #require(tab.page).pageWorld
        #expect(try Support.eval(top, "document.getElementById('same').contentDocument.getElementById('inner').textContent") as? String == "inner")
        #expect(try Support.eval(top, "document.getElementById('same').contentWindow.document.getElementById('nested').contentDocument.body.textContent") as? String == "nested")
        #expect(try Support.eval(top, "document.getElementById('doc').contentDocument.getElementById('inside') !== null") as? Bool == true)
        #expect(try Support.eval(top, "document.getElementById('blank').contentDocument.body !== null") as? Bool == true)
        #expect(try Support.eval(top, "document.getElementById('cross').contentDocument") == nil)
        #expect(try Support.eval(top, "document.getElementById('tracker').contentDocument === null && document.getElementById('tracker').contentWindow === null") as? Bool == true)
        let denied = try Support.eval(top, "try { document.getElementById('cross').contentWindow.secret; 'read' } catch (e) { e.name + ': ' + e.message }") as? String
        #expect(denied == #"SecurityError: Blocked a frame with origin "https://news.test" from accessing a frame with origin "https://ads.test". Protocols, domains, and ports must match."#)
        #expect(try Support.eval(top, "typeof document.getElementById('cross').contentWindow.postMessage") as? String == "function")
        // From inside: parent and top are windows of the same origin, or cross-origin proxies.
        let inner = try #require(try frame(tab, "https://news.test/nested.html").page).pageWorld
        #expect(try Support.eval(inner, "window.parent.document.getElementById('inner').textContent + ' ' + window.top.document.title") as? String == "inner news")
        #expect(try Support.eval(inner, "window.frameElement.id") as? String == "nested")
        let ad = try #require(try frame(tab, "https://ads.test/ad.html").page).pageWorld
        #expect(try Support.eval(ad, "window.frameElement === null && window.top !== window") as? Bool == true)
        #expect(try Support.eval(ad, "try { window.top.document; 'read' } catch (e) { e.name }") as? String == "SecurityError")
    }

    @Test func postMessageCrossesOriginsWithTheSendersOrigin() throws {
        let (browser, _, tab) = try loaded()
        let ad = try #require(try frame(tab, "https://ads.test/ad.html").page)
        try ad.pageWorld.evaluate("window.addEventListener('message', (e) => console.log('ad got', e.data.n, e.origin, e.source === window.parent))", sourceURL: "test")
        let top = try #require(tab.page).pageWorld
        try top.evaluate("""
            window.addEventListener('message', (e) => console.log('top got', e.data, e.origin));
            const w = document.getElementById('cross').contentWindow;
            w.postMessage({ n: 1 }, 'https://ads.test');
            w.postMessage({ n: 2 }, 'https://elsewhere.test');
            w.postMessage({ n: 3 }, '*');
            """, sourceURL: "test")
        try ad.pageWorld.evaluate("window.parent.postMessage('size:300x250', '*')", sourceURL: "test")
        try browser.loop.runUntilIdle()
        #expect(Support.logs(ad).filter { $0.hasPrefix("ad got") } == ["ad got 1 https://news.test true", "ad got 3 https://news.test true"])
        #expect(Support.logs(try #require(tab.page)).contains("top got size:300x250 https://ads.test"))
    }

    @Test func framesFinishBeforeTheirParentsLoadEvent() throws {
        let (_, _, tab) = try loaded()
        let logs = Support.logs(try #require(tab.page)).filter { $0.hasSuffix("load") || $0.hasSuffix("error") }
        #expect(logs == ["same frame load", "tracker frame error", "top load"])
        let inner = try #require(try frame(tab, "https://news.test/inner.html").page)
        #expect(Support.logs(inner).contains("inner load"))
    }

    @Test func tabsSendMessageReachesOneFrameWithFrameId() throws {
        let (browser, host, tab) = try loaded()
        let worker = try #require(host.backgroundWorld)
        let one = try Support.await(browser, worker, "return (await browser.tabs.sendMessage(\(tab.id), { type: 'where' }, { frameId: 3 })).url") as? String
        #expect(one == "https://ads.test/ad.html")
        // Without a frameId the first frame to answer wins: the top frame.
        let any = try Support.await(browser, worker, "return (await browser.tabs.sendMessage(\(tab.id), { type: 'where' })).url") as? String
        #expect(any == "https://news.test/")
        let missing = try Support.await(browser, worker, "try { await browser.tabs.sendMessage(\(tab.id), { type: 'where' }, { frameId: 99 }); } catch (e) { return e.message }") as? String
        #expect(missing == "Could not establish connection. Receiving end does not exist.")
    }

    @Test func runtimeMessagesFromAChildFrameCarryItsFrameIdAndUrl() throws {
        let (browser, host, tab) = try loaded()
        try #require(host.backgroundWorld).evaluate("""
            browser.runtime.onMessage.addListener((m, sender, reply) => {
              if (m.type === "who") reply([sender.frameId, sender.tab.id, sender.url, sender.origin].join(" "));
            });
            """, sourceURL: "test")
        let ad = try #require(try frame(tab, "https://ads.test/ad.html").page)
        let answer = try Support.await(browser, try ad.contentWorld(for: host.id), "return await browser.runtime.sendMessage({ type: 'who' })") as? String
        #expect(answer == "3 \(tab.id) https://ads.test/ad.html https://ads.test")
        let srcdoc = try #require(try frame(tab, "about:srcdoc").page)
        let inner = try Support.await(browser, try srcdoc.contentWorld(for: host.id), "return await browser.runtime.sendMessage({ type: 'who' })") as? String
        #expect(inner == "4 \(tab.id) about:srcdoc https://news.test")
    }

    @Test func messagesFromFramesCarryTheirFrameId() throws {
        let (browser, _) = try Support.browser(pages: ["https://news.example/": "<iframe src='https://news.example/child'></iframe>"])
        let tab = try browser.openTab(url: "https://news.example/")
        try browser.loop.runUntilIdle()
        // Sample Notes runs in the top frame only: its visit message says frame 0.
        #expect(Support.logs(try #require(tab.page)).contains("visit 1 tab \(tab.id) frame 0"))
        let child = try #require(tab.frame(1)?.page)
        let world = try child.contentWorld(for: "test")
        #expect(try Support.eval(world, "typeof browser") as? String == "undefined")
    }

    @Test func scriptInsertedFramesLoadAndRemovedOnesClose() throws {
        let (browser, _, tab) = try loaded()
        let top = try #require(tab.page).pageWorld
        let sync = try Support.eval(top, """
            const f = document.createElement('iframe');
            document.body.appendChild(f);
            f.contentDocument.body.innerHTML = '<b>written</b>';
            const g = document.createElement('iframe');
            g.id = 'late';
            g.src = 'https://ads.test/ad.html';
            document.body.appendChild(g);
            [f.contentDocument.body.textContent, g.contentDocument === null].join('|');
            """) as? String
        #expect(sync == "written|true")
        let before = tab.allFrames.count
        try browser.loop.runUntilIdle()
        #expect(tab.allFrames.count == before + 1)
        #expect(try Support.eval(top, "document.getElementById('late').contentWindow !== null") as? Bool == true)
        let hellos = Support.backgroundLogs(browser).filter { $0.hasPrefix("hello from frame") }
        #expect(hellos.suffix(2) == ["hello from frame 7 tab 1 about:blank child", "hello from frame 8 tab 1 https://ads.test/ad.html child"])
        try top.evaluate("document.getElementById('same').remove()", sourceURL: "test")
        #expect(tab.allFrames.contains { $0.url.hasSuffix("inner.html") || $0.url.hasSuffix("nested.html") } == false)
        try browser.loop.runUntilIdle()
        #expect(Support.backgroundLogs(browser).contains("port of frame 1 closed"))
        #expect(Support.backgroundLogs(browser).contains("port of frame 2 closed"))
    }

    @Test func navigatingTheTopFrameClosesEveryFrame() throws {
        let (browser, _, tab) = try loaded()
        let pages = tab.allFrames.compactMap(\.page)
        try browser.navigate(tab, to: "https://news.test/other")
        let closed = pages.filter { $0.isClosed }.count
        #expect(closed == pages.count)
        #expect(tab.allFrames.map(\.id) == [0])
    }
}
