import BrowserRuntime
import TestSupport
import Testing
import WebRuntime

/// A tab's document reaches the parser in 4 KB slices and the tasks due meanwhile run
/// between slices, as HTML's event loop keeps turning while a document arrives.
@Suite struct IncrementalLoadTests {
    /// A page whose first inline script sets a 0 ms timer that counts the paragraphs parsed so
    /// far, followed by `paragraphs` paragraphs.
    static func page(paragraphs: Int) -> String {
        "<!DOCTYPE html><title>long</title><script>setTimeout(() => { document.title = String(document.querySelectorAll('p').length); }, 0);</script>\n"
            + String(repeating: "<p>a paragraph of text that takes some room</p>\n", count: paragraphs)
    }

    static func browser(serving html: String) throws -> Browser {
        let browser = try Browser()
        browser.pageSource = { _ in html }
        return browser
    }

    @Test func aTaskDueDuringALongPageRunsBeforeItsEnd() throws {
        let browser = try Self.browser(serving: Self.page(paragraphs: 2000))
        let tab = try browser.openTab(url: "https://long.test/")
        let page = try #require(tab.page)
        let seen = Int(page.document["title"].stringValue ?? "") ?? -1
        #expect(seen > 0)
        #expect(seen < 2000)
        // The parser stops after the script (to run it), then takes the rest 4,096 bytes at
        // a time: the timer ran once the first slice after the script was parsed, which holds
        // every <p> start tag among those characters.
        let html = Self.page(paragraphs: 2000)
        let afterScript = html.utf8.suffix(from: html.range(of: "</script>")!.upperBound.samePosition(in: html.utf8)!)
        let firstSlice = String(decoding: afterScript.prefix(4096), as: UTF8.self)
        #expect(seen == firstSlice.components(separatedBy: "<p>").count - 1)
        #expect(try Support.eval(page.pageWorld, "document.querySelectorAll('p').length") as? Double == 2000)
    }

    @Test func aShortPageLoadsInOneSliceAndATaskRunsAfterIt() throws {
        let browser = try Self.browser(serving: Self.page(paragraphs: 20))
        let tab = try browser.openTab(url: "https://short.test/")
        try browser.loop.run(until: .milliseconds(1))
        #expect(tab.page?.document["title"].stringValue == "20")
    }

    @Test func aLoadStartedInsideJavaScriptDoesNotRunOtherTasks() throws {
        let html = Self.page(paragraphs: 2000)
        let session = try WebSession()
        let opener = try session.open(html: "<p>opener</p>", url: "https://opener.test/")
        var seen: String?
        // A host function stands for any browser API a script calls: JavaScript is on the stack.
        let load = opener.pageWorld.context.function("load") { call in
            let page = try session.open(html: html, url: "https://long.test/", incremental: true)
            seen = page.document["title"].stringValue
            return nil
        }
        try opener.pageWorld.global.set("load", load)
        _ = try opener.pageWorld.evaluate("load()", sourceURL: "test:load")
        #expect(seen == "long")
    }

    @Test func aTaskThatClosesTheTabStopsTheLoad() throws {
        // The timer is a task due while the page arrives; the test closes the tab after it.
        let html = "<!DOCTYPE html><script>setTimeout(() => {}, 0);</script>\n"
            + String(repeating: "<p>a paragraph of text that takes some room</p>\n", count: 2000)
        let browser = try Self.browser(serving: html)
        var closed = false
        browser.loop.afterEachTask = { [weak browser] in
            guard let browser, !closed, let tab = browser.tabs.first, tab.page != nil else { return }
            closed = true
            browser.close(tab)
        }
        _ = try browser.openTab(url: "https://closed.test/")
        #expect(closed)
        #expect(browser.tabs.isEmpty)
        try browser.loop.runUntilIdle()
        #expect(!browser.trace.dump(channels: [.api, .navigation]).contains("complete"))
    }

    /// A background that redirects the tab when its navigation commits does so while the long
    /// page is still arriving: that load stops, the new one completes, and only it reports
    /// `complete`.
    @Test func aTaskThatNavigatesTheTabReplacesTheLoad() throws {
        let long = Self.page(paragraphs: 2000)
        let (browser, host) = try Support.outlineBrowser(pages: ["https://long.test/": long, "https://other.test/": "<p>other</p>"])
        let worker = try #require(host.backgroundWorld)
        _ = try worker.evaluate("""
            let redirected = false;
            browser.webNavigation.onCommitted.addListener((d) => {
              if (d.frameId === 0 && d.url === 'https://long.test/' && !redirected) { redirected = true; browser.tabs.update(d.tabId, { url: 'https://other.test/' }); }
            });
            """, sourceURL: "test:redirect")
        var first: Page?
        browser.loop.afterEachTask = { [weak browser] in
            if first == nil, let page = browser?.tabs.first?.page, page.url == "https://long.test/" { first = page }
        }
        let tab = try browser.openTab(url: "https://long.test/")
        browser.loop.afterEachTask = nil
        #expect(tab.url == "https://other.test/")
        // The long page was closed part-way: its parser stopped where the redirect came.
        let stopped = try #require(first)
        #expect(stopped.isClosed)
        let parsed = try Support.eval(stopped.pageWorld, "document.querySelectorAll('p').length") as? Double ?? -1
        #expect(parsed > 0 && parsed < 2000)
        let page = try #require(tab.page)
        #expect(page.url == "https://other.test/" && !page.isClosed)
        try browser.loop.runUntilIdle()
        let navigation = browser.trace.dump(channels: [.navigation]).split(separator: "\n").map { String($0.drop { $0 == " " }) }
        #expect(navigation.filter { $0.contains("navigate https://") }.map { String($0.split(separator: " ").last ?? "") } == ["https://long.test/", "https://other.test/"])
        // Only the page that finished loading reached `complete`.
        #expect(try Support.eval(page.pageWorld, "document.readyState") as? String == "complete")
        #expect(try Support.eval(stopped.pageWorld, "document.readyState") as? String == "loading")
    }
}
