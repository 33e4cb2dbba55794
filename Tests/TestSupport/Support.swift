import ADVHarnessSupport
import BrowserRuntime
import Foundation
import JSKit
import ScenarioKit
import WebRuntime

/// Shared helpers for the runtime's tests.
public enum Support {
    /// Registers ADV's native host kinds with the harness, as adv-harness does at start.
    public static let registered: Void = ADVHarnessSupport.register()

    /// The repository's fixtures folder, found from this file's location.
    public static let fixtures: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fixtures")

    /// The project's scenario catalog, with ADV's extension as the scenarios' default (as
    /// `adv-harness` has it).
    public static let catalog: ScenarioCatalog = {
        registered
        return ADVHarnessSupport.withADVDefaults(ScenarioCatalog(projectRoot: fixtures.deletingLastPathComponent()))
    }()

    /// The text of `fixtures/<path>`.
    public static func fixture(_ path: String) throws -> String {
        try String(contentsOf: fixtures.appendingPathComponent(path), encoding: .utf8)
    }

    /// A page loaded from `html` in a new session, run until idle.
    public static func load(_ html: String, url: String = "https://site.example/", contentScripts: [ContentScript] = [], runToIdle: Bool = true) throws -> (WebSession, Page) {
        let session = try WebSession()
        let page = try session.open(html: html, url: url, contentScripts: contentScripts)
        if runToIdle { try session.loop.runUntilIdle() }
        return (session, page)
    }

    /// The text of every console message of `page`, in order.
    public static func logs(_ page: Page) -> [String] { page.console.map(\.text) }

    /// Evaluates `expression` in `world` and converts the result to Swift.
    public static func eval(_ world: World, _ expression: String) throws -> Any? {
        try world.evaluate(expression, sourceURL: "test:eval").toSwift()
    }

    /// Evaluates `code` in the engine realm, where domino and the layers live and no page reaches,
    /// with `document` bound to `page`'s document and the page's window members in scope: for
    /// tests of the engine's internals.
    public static func evalInEngine(_ page: Page, _ code: String) throws -> Any? {
        guard let context = page.session?.realm.context else { return nil }
        let run = try context.evaluate("(function (document, window, code) { with (window) return eval(code); })", sourceURL: "test:engine")
        return try run.call([page.document, page.handle["shared"], context.string(code)]).toSwift()
    }

    /// A content script for the test extension `test`.
    public static func contentScript(_ source: String, runAt: ContentScript.RunAt = .documentEnd) -> ContentScript {
        ContentScript(extensionID: "test", source: source, url: "safari-web-extension://test/content.js", runAt: runAt)
    }
}

extension Support {
    /// The sample third-party extension under fixtures/extensions/sample-notes.
    public static func sampleExtension() throws -> ExtensionBundle {
        try ExtensionBundle(folder: fixtures.appendingPathComponent("extensions/sample-notes"))
    }

    /// A browser in `profile` with nothing installed and no pages.
    public static func emptyBrowser(profile: Browser.Profile) throws -> Browser {
        var options = Browser.Options()
        options.profile = profile
        return try Browser(options: options)
    }

    /// A browser with the sample extension installed, pages served from `pages` (URL -> HTML),
    /// and every site permitted unless `permission` says otherwise.
    public static func browser(
        pages: [String: String] = [:], permission: SitePermission = .always, profile: Browser.Profile = .safari
    ) throws -> (Browser, ExtensionHost) {
        try browser(with: try sampleExtension(), pages: pages, permission: permission, profile: profile)
    }

    /// A browser with `bundle` installed, pages served from `pages` (other https URLs get a
    /// plain page), and every site given `permission`.
    public static func browser(
        with bundle: ExtensionBundle, pages: [String: String], permission: SitePermission, profile: Browser.Profile
    ) throws -> (Browser, ExtensionHost) {
        let browser = try emptyBrowser(profile: profile)
        browser.setSitePermission(permission, for: "*")
        browser.pageSource = { url in pages[url] ?? (url.hasPrefix("https://") ? "<!DOCTYPE html><title>\(url)</title><body><p>page</p></body>" : nil) }
        let host = try browser.install(bundle)
        try browser.loop.runUntilIdle()
        return (browser, host)
    }

    /// Evaluates `script` (an async function body) in `world` and waits for its result.
    public static func await(_ browser: Browser, _ world: World, _ script: String) throws -> Any? {
        let promise = try world.evaluate("(async () => { \(script) })()", sourceURL: "test:await")
        return try browser.session.settle(promise).toSwift()
    }
}

extension Support {
    /// A page with frames of every kind: same-origin (with a nested frame), cross-origin,
    /// srcdoc, about:blank, and one from a blocked tracker.
    public static let framedPages: [String: String] = [
        "https://news.test/": """
            <!DOCTYPE html><html><head><title>news</title></head><body>
            <iframe id="same" src="/inner.html"></iframe>
            <iframe id="cross" src="https://ads.test/ad.html"></iframe>
            <iframe id="doc" srcdoc="<p id=inside>srcdoc body</p>"></iframe>
            <iframe id="blank"></iframe>
            <iframe id="tracker" src="https://tracker.test/frame.html" onerror="console.log('tracker frame error')" onload="console.log('tracker frame load')"></iframe>
            <script>
              document.getElementById("same").addEventListener("load", () => console.log("same frame load"));
              window.addEventListener("load", () => console.log("top load"));
            </script>
            </body></html>
            """,
        "https://news.test/inner.html": """
            <!DOCTYPE html><html><body><p id="inner">inner</p><iframe id="nested" src="https://news.test/nested.html"></iframe>
            <script>window.addEventListener("load", () => console.log("inner load"));</script></body></html>
            """,
        "https://news.test/nested.html": "<!DOCTYPE html><html><body><p>nested</p></body></html>",
        "https://ads.test/ad.html": "<!DOCTYPE html><html><body><p id='ad'>ad</p><script>var secret = 42;</script></body></html>",
        "https://tracker.test/frame.html": "<!DOCTYPE html><p>tracker</p>",
    ]

    /// The Frame Outline fixture extension.
    public static func frameOutline() throws -> ExtensionBundle {
        try ExtensionBundle(folder: fixtures.appendingPathComponent("extensions/frame-outline"))
    }

    /// A browser with Frame Outline installed, pages served from `pages`, sites permitted.
    public static func outlineBrowser(
        pages: [String: String] = framedPages, permission: SitePermission = .always, profile: Browser.Profile = .safari
    ) throws -> (Browser, ExtensionHost) {
        try browser(with: try frameOutline(), pages: pages, permission: permission, profile: profile)
    }

    /// Console lines of the extension's background, in order.
    public static func backgroundLogs(_ browser: Browser) -> [String] {
        browser.trace.events.filter { $0.channel == .console && $0.location.hasPrefix("background") }.map {
            $0.text.hasPrefix("log: ") ? String($0.text.dropFirst(5)) : $0.text
        }
    }
}
