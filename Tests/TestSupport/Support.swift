import ExtensionRuntime
import Foundation
import JSKit

/// Shared helpers for the runtime's tests.
public enum Support {
    /// The repository's fixtures folder, found from this file's location.
    public static let fixtures: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fixtures")

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

    /// A content script for the test extension `test`.
    public static func contentScript(_ source: String, runAt: ContentScript.RunAt = .documentEnd) -> ContentScript {
        ContentScript(extensionID: "test", source: source, url: "safari-web-extension://test/content.js", runAt: runAt)
    }

    /// Resident memory of this process in bytes (Linux /proc/self/statm).
    public static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

extension Support {
    /// The sample third-party extension under fixtures/extensions/sample-notes.
    public static func sampleExtension() throws -> ExtensionBundle {
        try ExtensionBundle(folder: fixtures.appendingPathComponent("extensions/sample-notes"))
    }

    /// A browser with the sample extension installed, pages served from `pages` (URL -> HTML),
    /// and every site permitted unless `permission` says otherwise.
    public static func browser(
        pages: [String: String] = [:], permission: SitePermission = .always, profile: Browser.Profile = .safari
    ) throws -> (Browser, ExtensionHost) {
        var options = Browser.Options()
        options.profile = profile
        let browser = try Browser(options: options)
        browser.setSitePermission(permission, for: "*")
        browser.pageSource = { url in pages[url] ?? (url.hasPrefix("https://") ? "<!DOCTYPE html><title>\(url)</title><body><p>page</p></body>" : nil) }
        let host = try browser.install(try sampleExtension())
        try browser.loop.runUntilIdle()
        return (browser, host)
    }

    /// Evaluates `script` (an async function body) in `world` and waits for its result.
    public static func await(_ browser: Browser, _ world: World, _ script: String) throws -> Any? {
        let promise = try world.evaluate("(async () => { \(script) })()", sourceURL: "test:await")
        return try browser.session.settle(promise).toSwift()
    }
}
