import BrowserRuntime
import JSKit
import TestSupport
import Testing
import WebRuntime

/// Session history (HTML 7.4) in a bare session: history.pushState / replaceState / back /
/// forward / go, fragment navigations, popstate and hashchange, and WebKit's checks.
@Suite struct HistoryTests {
    @Test func pushStateChangesTheURLAndAddsAnEntryWithoutAnEvent() throws {
        let (session, page) = try Support.load("<p>x</p>", url: "https://site.example/a?q=1")
        var changes: [String] = []
        session.urlChanged = { _, url, kind in changes.append(kind + " " + url) }
        _ = try Support.eval(page.pageWorld, "window.events = []; addEventListener('popstate', () => events.push('popstate')); addEventListener('hashchange', () => events.push('hashchange'));")
        let state = try Support.eval(page.pageWorld, """
            const data = { n: 1, list: [1, 2] };
            history.pushState(data, "", "/b/c?x=2#top");
            [location.href, document.URL, document.baseURI, history.length, history.state.n, history.state !== data, history.state === history.state,
             location.pathname, location.hash, JSON.stringify(history.state)].join(' ')
            """) as? String
        #expect(state == #"https://site.example/b/c?x=2#top https://site.example/b/c?x=2#top https://site.example/b/c?x=2#top 2 1 true true /b/c #top {"n":1,"list":[1,2]}"#)
        #expect(page.url == "https://site.example/b/c?x=2#top")
        #expect(changes == ["pushState https://site.example/b/c?x=2#top"])
        _ = try Support.eval(page.pageWorld, "history.replaceState('second', '', 'd')")
        #expect(try Support.eval(page.pageWorld, "[location.href, history.length, history.state].join(' ')") as? String == "https://site.example/b/d 2 second")
        try session.loop.runUntilIdle()
        #expect(try Support.eval(page.pageWorld, "events.length") as? Double == 0)
        // A content script sees the same history and URL.
        let content = try page.contentWorld(for: "ext")
        #expect(try Support.eval(content, "[history.state, location.href].join(' ')") as? String == "second https://site.example/b/d")
    }

    @Test func traversalIsATaskThatFiresPopstateAndHashchange() throws {
        let (session, page) = try Support.load("<p>x</p>", url: "https://site.example/a")
        _ = try Support.eval(page.pageWorld, """
            window.events = [];
            addEventListener('popstate', (e) => events.push('popstate ' + JSON.stringify(e.state) + ' ' + location.href + ' ' + (e instanceof PopStateEvent)));
            onhashchange = (e) => events.push('hashchange ' + e.oldURL + ' -> ' + e.newURL);
            history.pushState({ page: 2 }, '', '/two');
            location.hash = 'part';
            history.back();
            events.push('after back: ' + location.href);
            """)
        // The fragment navigation fires popstate at once (as WebKit does) and queues hashchange;
        // the back traversal runs after it.
        try session.loop.runUntilIdle()
        #expect(try Support.eval(page.pageWorld, "events.join(' | ')") as? String == [
            "popstate null https://site.example/two#part true",
            "after back: https://site.example/two#part",
            "hashchange https://site.example/two -> https://site.example/two#part",
            #"popstate {"page":2} https://site.example/two true"#,
            "hashchange https://site.example/two#part -> https://site.example/two",
        ].joined(separator: " | "))
        _ = try Support.eval(page.pageWorld, "events.length = 0; history.go(-1)")
        try session.loop.runUntilIdle()
        #expect(try Support.eval(page.pageWorld, "[events.join(' | '), history.length, history.state].join(' / ')") as? String
                == "popstate null https://site.example/a true / 3 / ")
        // Past the ends nothing happens; forward goes two entries on.
        _ = try Support.eval(page.pageWorld, "events.length = 0; history.back(); history.go(5)")
        try session.loop.runUntilIdle()
        #expect(try Support.eval(page.pageWorld, "events.length") as? Double == 0)
        _ = try Support.eval(page.pageWorld, "history.go(2)")
        try session.loop.runUntilIdle()
        #expect(page.url == "https://site.example/two#part")
        // A new entry drops the ones ahead of the current one.
        _ = try Support.eval(page.pageWorld, "history.go(-2)")
        try session.loop.runUntilIdle()
        _ = try Support.eval(page.pageWorld, "history.pushState(null, '', '/three')")
        #expect(try Support.eval(page.pageWorld, "history.length") as? Double == 2)
    }

    /// WebKit's History::stateObjectAdded: another origin is a SecurityError naming both URLs, an
    /// uncloneable state a DataCloneError, and nothing changes in either case.
    @Test func rejectedStateChangesLeaveTheHistoryAlone() throws {
        let (_, page) = try Support.load("<p>x</p>", url: "https://site.example/a")
        let result = try Support.eval(page.pageWorld, """
            const out = [];
            for (const attempt of [() => history.pushState(null, '', 'https://other.example/a'), () => history.pushState(null, '', 'http://site.example/a'),
                                   () => history.replaceState(() => 1, '', '/b'), () => history.pushState(null), () => history.pushState(null, '', 'https://x:y@site.example/')]) {
              try { attempt(); out.push('ok'); } catch (e) { out.push(e.name + ': ' + e.message); }
            }
            out.push(location.href + ' ' + history.length);
            out.join('\\n')
            """) as? String
        #expect(result == """
            SecurityError: Blocked attempt to use history.pushState() to change session history URL from https://site.example/a to https://other.example/a. Protocols, domains, ports, usernames, and passwords must match.
            SecurityError: Blocked attempt to use history.pushState() to change session history URL from https://site.example/a to http://site.example/a. Protocols, domains, ports, usernames, and passwords must match.
            DataCloneError: A function could not be cloned.
            TypeError: Not enough arguments
            SecurityError: Blocked attempt to use history.pushState() to change session history URL from https://site.example/a to https://x:y@site.example/. Protocols, domains, ports, usernames, and passwords must match.
            https://site.example/a 1
            """)
    }

    /// WebKit allows 100 state changes per 10 seconds; the window is measured on the virtual clock.
    @Test func stateChangesAreLimitedPerTenSeconds() throws {
        let (session, page) = try Support.load("<p>x</p>", url: "https://site.example/a")
        let burst = "(() => { let n = 0; try { for (let i = 0; i < 150; i++) { history.replaceState(i, ''); n++; } } catch (e) { return n + ' ' + e.name + ': ' + e.message; } return String(n); })()"
        #expect(try Support.eval(page.pageWorld, burst) as? String == "100 SecurityError: Attempt to use history.replaceState() more than 100 times per 10 seconds")
        #expect(try Support.eval(page.pageWorld, "history.state") as? Double == 99)
        try session.loop.advance(by: .seconds(11))
        #expect(try Support.eval(page.pageWorld, burst) as? String == "100 SecurityError: Attempt to use history.replaceState() more than 100 times per 10 seconds")
    }

    /// A session history keeps at most 100 entries (WebKit's BackForwardList capacity): the
    /// oldest goes.
    @Test func theHistoryKeepsAHundredEntries() throws {
        let (session, page) = try Support.load("<p>x</p>", url: "https://site.example/a")
        _ = try Support.eval(page.pageWorld, "for (let i = 1; i <= 60; i++) history.pushState(i, '', '/p' + i)")
        try session.loop.advance(by: .seconds(11))
        _ = try Support.eval(page.pageWorld, "for (let i = 61; i <= 105; i++) history.pushState(i, '', '/p' + i)")
        #expect(try Support.eval(page.pageWorld, "[history.length, history.state, location.pathname].join()") as? String == "100,105,/p105")
        _ = try Support.eval(page.pageWorld, "history.go(-99)")
        try session.loop.runUntilIdle()
        #expect(try Support.eval(page.pageWorld, "[history.state, location.pathname].join()") as? String == "6,/p6")
    }

    /// Location's navigations go to the embedder; a bare session has none, so the page and its
    /// location stay (domino's own Location rewrote its URL and left the document in place).
    @Test func locationNavigationsAreAskedOfTheEmbedder() throws {
        let (session, page) = try Support.load("<p>x</p>", url: "https://site.example/a")
        _ = try Support.eval(page.pageWorld, "location.href = '/elsewhere'")
        #expect(try Support.eval(page.pageWorld, "location.href") as? String == "https://site.example/a")
        var asked: [String] = []
        session.navigationRequested = { _, url, kind in asked.append(kind + " " + url); return true }
        _ = try Support.eval(page.pageWorld, "location.assign('b'); location.replace('https://other.example/'); location.reload(); location.href = location.href; history.go(0)")
        #expect(asked == ["push https://site.example/b", "replace https://other.example/", "reload https://site.example/a",
                          "replace https://site.example/a", "reload https://site.example/a"])
        // A fragment is the same document: no request, a new entry and a hashchange.
        _ = try Support.eval(page.pageWorld, "location.href = '#x'")
        #expect(asked.count == 5)
        #expect(try Support.eval(page.pageWorld, "[location.href, history.length].join(' ')") as? String == "https://site.example/a#x 2")
        #expect(throws: JSError.self) { try page.pageWorld.evaluate("location.href = 'https://[bad'", sourceURL: "t") }
    }

    /// A page's patches to History.prototype and Location.prototype are gone on the next page.
    @Test func patchesToHistoryDoNotSurviveNavigation() throws {
        let (session, page) = try Support.load("<p>x</p>", url: "https://site.example/a")
        _ = try Support.eval(page.pageWorld, "History.prototype.pushState = function () { window.hooked = true; }; Object.defineProperty(Location.prototype, 'href', { get() { return 'x'; }, configurable: true });")
        let next = try session.navigate(from: page, html: "<p>y</p>", url: "https://site.example/b")
        _ = try Support.eval(next.pageWorld, "history.pushState(1, '', '/c')")
        #expect(try Support.eval(next.pageWorld, "[typeof hooked, location.href, history.state].join(' ')") as? String == "undefined https://site.example/c 1")
    }

    // MARK: - In the browser: one session history per tab

    @Test func aTabsHistorySpansItsDocuments() throws {
        let (browser, host) = try Support.browser()
        let background = try #require(host.backgroundWorld)
        _ = try Support.eval(background, "browser.tabs.onUpdated.addListener((id, change) => console.log('updated ' + JSON.stringify(change)))")
        let tab = try browser.openTab(url: "https://news.example/a")
        try browser.loop.runUntilIdle()
        func page() throws -> Page { try #require(tab.page) }
        func eval(_ script: String) throws -> Any? { try Support.eval(try page().pageWorld, script) }

        // pushState: the tab's URL follows, tabs.onUpdated says only the URL changed.
        _ = try eval("history.pushState({ n: 1 }, '', '/a2')")
        try browser.loop.runUntilIdle()
        #expect(tab.url == "https://news.example/a2" && tab.frame(0)?.url == "https://news.example/a2")
        #expect(Support.backgroundLogs(browser).last == #"updated {"url":"https://news.example/a2"}"#)
        #expect(browser.trace.dump().contains("tab1 navigation pushState https://news.example/a2"))
        #expect(browser.history(of: tab) == (2, 1))

        // A location navigation loads a new document in a later task, after the entry.
        let first = try page()
        _ = try eval("location.href = '/b'")
        #expect(tab.page === first)
        try browser.loop.runUntilIdle()
        #expect(try page().url == "https://news.example/b" && tab.page !== first)
        #expect(browser.history(of: tab) == (3, 2))
        #expect(try eval("history.length") as? Double == 3)

        // Back to another document's entry: it loads again and gets the entry's state back.
        _ = try eval("history.back()")
        try browser.loop.runUntilIdle()
        #expect(try page().url == "https://news.example/a2")
        #expect(try eval("JSON.stringify(history.state) + ' ' + history.length") as? String == #"{"n":1} 3"#)
        #expect(browser.history(of: tab) == (3, 1))
        // A reload keeps the entry and its state.
        try browser.reload(tab)
        try browser.loop.runUntilIdle()
        #expect(try eval("JSON.stringify(history.state) + ' ' + history.length") as? String == #"{"n":1} 3"#)

        // The browser's buttons.
        try browser.goBack(tab)
        try browser.loop.runUntilIdle()
        #expect(try page().url == "https://news.example/a" && browser.history(of: tab) == (3, 0))
        #expect(try eval("history.state") == nil)
        try browser.goForward(tab)
        try browser.loop.runUntilIdle()
        try browser.goForward(tab)
        try browser.loop.runUntilIdle()
        #expect(try page().url == "https://news.example/b" && browser.history(of: tab) == (3, 2))

        // A new navigation from the middle drops the entries ahead; replace keeps the count.
        try browser.goBack(tab)
        try browser.loop.runUntilIdle()
        try browser.navigate(tab, to: "https://news.example/c")
        #expect(browser.history(of: tab) == (3, 2))
        _ = try eval("location.replace('/d')")
        try browser.loop.runUntilIdle()
        #expect(try page().url == "https://news.example/d" && browser.history(of: tab) == (3, 2))
        // Another tab has a history of its own.
        let other = try browser.openTab(url: "https://news.example/x")
        #expect(browser.history(of: other) == (1, 0))
    }

    /// A frame's own navigation loads in the frame (same frame id, a sub_frame request the rules
    /// decide, the element's load event); the tab stays.
    @Test func aFrameNavigatesItself() throws {
        let (browser, _) = try Support.outlineBrowser()
        let tab = try browser.openTab(url: "https://news.test/")
        try browser.loop.runUntilIdle()
        let frame = try #require(tab.frames.values.first { $0.url == "https://news.test/inner.html" })
        let id = frame.id
        let top = try #require(tab.page)
        _ = try Support.eval(top.pageWorld, "document.getElementById('same').addEventListener('load', () => console.log('same frame loaded again'))")
        _ = try Support.eval(try #require(frame.page).pageWorld, "location.href = '/elsewhere.html'")
        try browser.loop.runUntilIdle()
        #expect(tab.frame(id)?.url == "https://news.test/elsewhere.html")
        #expect(try Support.eval(try #require(tab.frame(id)?.page).pageWorld, "location.href") as? String == "https://news.test/elsewhere.html")
        #expect(top.console.map(\.text).contains("same frame loaded again"))
        #expect(tab.page === top && tab.url == "https://news.test/")
        // The rules decide a frame's navigation as they decide its first load.
        _ = try Support.eval(try #require(tab.frame(id)?.page).pageWorld, "location.href = 'https://tracker.test/frame.html'")
        try browser.loop.runUntilIdle()
        #expect(browser.trace.dump().contains("tab1 network GET https://tracker.test/frame.html sub_frame blocked"))
        #expect(tab.frame(id)?.page == nil)
    }

    @Test func aNavigationWithNoPageSaysSo() throws {
        let (browser, _) = try Support.browser()
        let tab = try browser.openTab(url: "https://news.example/")
        _ = try Support.eval(try #require(tab.page).pageWorld, "location.href = 'http://unmapped.test/'")
        try browser.loop.runUntilIdle()
        #expect(browser.trace.dump().contains("navigation to http://unmapped.test/ (push) failed: no page for 'http://unmapped.test/'"))
        #expect(tab.url == "https://news.example/" && browser.history(of: tab) == (1, 0))
        #expect(try Support.eval(try #require(tab.page).pageWorld, "location.href") as? String == "https://news.example/")
    }
}
