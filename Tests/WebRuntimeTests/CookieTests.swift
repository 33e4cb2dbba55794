import BrowserRuntime
import JSKit
import TestSupport
import Testing
import WebRuntime

/// document.cookie (RFC 6265bis storage model, HTML 3.1.3): one jar per browser session, matched
/// by host, domain and path, expiring on the virtual clock.
@Suite struct CookieTests {
    @Test func scriptsSetAndReadCookies() throws {
        let (session, page) = try Support.load("<p>x</p>", url: "https://shop.example/cart/items?x=1")
        let result = try Support.eval(page.pageWorld, """
            document.cookie = 'a=1';
            document.cookie = ' b = two words ; path=/';
            document.cookie = 'c=3; path=/cart/items';
            document.cookie = 'nameless';
            document.cookie = 'a=replaced';
            document.cookie = 'gone=1; max-age=0';
            document.cookie = 'old=1; expires=Thu, 01 Jan 1970 00:00:00 GMT';
            document.cookie = 'http=1; HttpOnly';
            document.cookie = 'other=1; domain=elsewhere.example';
            document.cookie;
            """) as? String
        // Longer paths first; equal paths in creation order; a replaced cookie keeps its place.
        #expect(result == "c=3; a=replaced; nameless; b=two words")
        // Expiry follows the virtual clock.
        _ = try Support.eval(page.pageWorld, "document.cookie = 'short=1; max-age=5'")
        #expect((try Support.eval(page.pageWorld, "document.cookie") as? String)?.contains("short=1") == true)
        try session.loop.advance(by: .seconds(6))
        #expect((try Support.eval(page.pageWorld, "document.cookie") as? String)?.contains("short=1") == false)
        // A content script reads the page's cookies (the same document).
        #expect(try Support.eval(try page.contentWorld(for: "ext"), "document.cookie.split('; ').length") as? Double == 4)
    }

    @Test func domainPathSecureAndPrefixes() throws {
        let (browser, _) = try Support.browser()
        let tab = try browser.openTab(url: "https://www.shop.example/a/b")
        func page() throws -> Page { try #require(tab.page) }
        _ = try Support.eval(try page().pageWorld, """
            document.cookie = 'wide=1; domain=.shop.example; path=/';
            document.cookie = 'host=1; path=/';
            document.cookie = 'deep=1; path=/a';
            document.cookie = 'safe=1; secure; path=/';
            document.cookie = '__Secure-ok=1; secure; path=/';
            document.cookie = '__Secure-bad=1; path=/';
            document.cookie = '__Host-ok=1; secure; path=/';
            document.cookie = '__Host-bad=1; secure; path=/; domain=shop.example';
            """)
        #expect(try Support.eval(try page().pageWorld, "document.cookie") as? String == "deep=1; host=1; safe=1; __Secure-ok=1; __Host-ok=1; wide=1")
        // Kept across navigations; another host of the domain sees only the domain cookie; plain
        // http sees no Secure one and cannot set one.
        try browser.navigate(tab, to: "https://shop.example/")
        #expect(try Support.eval(try page().pageWorld, "document.cookie") as? String == "wide=1")
        browser.pageSource = { _ in "<p>plain</p>" }
        try browser.navigate(tab, to: "http://www.shop.example/")
        _ = try Support.eval(try page().pageWorld, "document.cookie = 'safe=2; secure; path=/'; document.cookie = 'plain=1'")
        #expect(try Support.eval(try page().pageWorld, "document.cookie") as? String == "host=1; plain=1; wide=1")
        // A private tab has its own jar; a restart keeps only cookies with an expiry.
        let hidden = try browser.openTab(url: "https://www.shop.example/", isPrivate: true)
        #expect(try Support.eval(try #require(hidden.page).pageWorld, "document.cookie") as? String == "")
        _ = try Support.eval(try page().pageWorld, "document.cookie = 'kept=1; max-age=3600'")
        try browser.restart()
        let again = try browser.openTab(url: "http://www.shop.example/")
        #expect(try Support.eval(try #require(again.page).pageWorld, "document.cookie") as? String == "kept=1")
    }

    @Test func documentsWithoutCookies() throws {
        let (_, page) = try Support.load("<iframe src='about:blank'></iframe>", url: "fidelity://test/0/page.html")
        #expect(try Support.eval(page.pageWorld, "document.cookie = 'a=1'; document.cookie") as? String == "")
        let (_, data) = try Support.load("<p>x</p>", url: "data:text/html,x")
        #expect(throws: JSError.self) { try data.pageWorld.evaluate("document.cookie", sourceURL: "t") }
    }
}
