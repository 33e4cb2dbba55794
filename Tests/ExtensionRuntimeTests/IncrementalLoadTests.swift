import ExtensionRuntime
import Testing
import TestSupport

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
}
