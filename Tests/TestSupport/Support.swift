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
