import BrowserRuntime
import Foundation
import TestSupport
import Testing
import WebRuntime

/// The DOM trace names an extension for a change its code made, and nobody for the page's own:
/// the innermost world's code decides (JS/trace/dom-trace.js), including an extension script
/// run in the page's world and a page listener that an extension's click() ran.
@Suite struct DOMTraceAttributionTests {
    static func browser(mainWorld: Bool) throws -> (Browser, Page) {
        let browser = try Browser()
        browser.pageSource = { $0 == "https://a.example/" ? "<body><button id=b>b</button><script>document.getElementById('b').addEventListener('click', () => { const p = document.createElement('p'); p.id = 'page-made'; document.body.appendChild(p); });</script></body>" : nil }
        browser.setSitePermission(.always, for: "*")
        var scripts = #"{"matches": ["https://a.example/*"], "js": ["iso.js"]}"#
        if mainWorld { scripts += #", {"matches": ["https://a.example/*"], "js": ["main.js"], "world": "MAIN"}"# }
        let folder = try Support.extensionFolder(mainWorld ? "trace-main" : "trace-iso", [
            "manifest.json": #"{"manifest_version": 3, "name": "T", "version": "1", "content_scripts": [\#(scripts)]}"#,
            "iso.js": "const i = document.createElement('i'); i.id = 'iso'; document.body.appendChild(i); document.getElementById('b').click(); i.style.color = 'red';",
            "main.js": "const m = document.createElement('em'); m.id = 'main'; document.body.appendChild(m);",
        ])
        _ = try browser.install(try ExtensionBundle(folder: folder))
        let tab = try browser.openTab(url: "https://a.example/")
        try browser.loop.runUntilIdle()
        return (browser, try #require(tab.page))
    }

    static func domLines(_ browser: Browser) -> [String] {
        browser.trace.events.filter { $0.channel == .dom }.map(\.text)
    }

    @Test func anIsolatedScriptsChangesAreItsAndThePagesAreNot() throws {
        let (browser, page) = try Self.browser(mainWorld: false)
        // The page's own change after the extension ran, and one made by its listener that the
        // extension's click() dispatched: neither is the extension's.
        _ = try page.pageWorld.evaluate("document.body.appendChild(document.createElement('hr'))", sourceURL: "https://a.example/late.js")
        try browser.loop.runUntilIdle()
        let lines = Self.domLines(browser)
        #expect(lines.contains("insert <i#iso> into <body>"), "\(lines)")
        #expect(lines.contains(#"set style="color: red;" on <i#iso>"#), "\(lines)")
        #expect(!lines.contains { $0.contains("page-made") || $0.contains("<hr>") }, "\(lines)")
    }

    @Test func anExtensionScriptInThePagesWorldIsStillTheExtensions() throws {
        let (browser, _) = try Self.browser(mainWorld: true)
        let lines = Self.domLines(browser)
        #expect(lines.contains("insert <em#main> into <body>"), "\(lines)")
        #expect(lines.contains("insert <i#iso> into <body>"), "\(lines)")
        #expect(!lines.contains { $0.contains("page-made") }, "\(lines)")
    }
}
