import BrowserRuntime
import Dispatch
import Foundation
import JSKit
import ScenarioKit
import WebRuntime

/// Measures the browser.* layer (issue 4's figures):
///
/// - `round_trip_us`: `runtime.sendMessage` from a content script to the background and its
///   response back, until the content script's promise settles.
/// - `storage_us`: `storage.local.set` of a 1,000-entry object followed by `storage.local.get`
///   of everything, from the background.
///
/// Wall time is read here, and only here: benchmarks measure the host, scenarios never do.
public enum ExtensionBenchmark {
    /// A minimal third-party-style extension written to a temporary folder: a background that
    /// answers pings and a content script on every https page.
    static let files: [String: String] = [
        "manifest.json": """
            {"manifest_version": 3, "name": "Bench Echo", "version": "1.0",
             "background": {"service_worker": "worker.js"},
             "content_scripts": [{"matches": ["https://*/*"], "js": ["content.js"], "run_at": "document_end"}],
             "permissions": ["storage"], "host_permissions": ["https://*/*"]}
            """,
        "worker.js": "browser.runtime.onMessage.addListener((message, sender, sendResponse) => { sendResponse({ pong: message.n }); });",
        "content.js": "globalThis.ping = (n) => browser.runtime.sendMessage({ type: 'ping', n });",
    ]

    /// A browser with the bench extension installed and one tab open, and the folder to remove.
    static func makeBrowser() throws -> (Browser, ExtensionHost, Tab, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("adv-bench-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let browser = try Browser()
        browser.setSitePermission(.always, for: "*")
        browser.pageSource = { _ in "<!DOCTYPE html><title>bench</title><p>bench</p>" }
        let host = try browser.install(try ExtensionBundle(folder: folder))
        let tab = try browser.openTab(url: "https://bench.example/")
        try browser.loop.runUntilIdle()
        return (browser, host, tab, folder)
    }

    /// Times `iterations` message round trips (after `warmup` untimed ones).
    /// - Throws: when the runtime cannot load the extension or a message fails.
    public static func roundTrip(iterations: Int = 200, warmup: Int = 50) throws -> BenchMeasurement {
        let (browser, host, tab, folder) = try makeBrowser()
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let world = try tab.page?.contentWorld(for: host.id) else { throw BrowserError("the bench content world is missing") }
        let ping = try world.global.property("ping")
        return try BenchMeasurement.timing("round_trip_us", unit: "us", iterations: iterations, warmup: warmup) { index in
            try browser.session.settle(try ping.call([world.context.number(Double(index))]))
        }
    }

    /// Times `iterations` storage.local set+get pairs of a 1,000-entry object.
    /// - Throws: when the runtime cannot load the extension or a call fails.
    public static func storage(iterations: Int = 50, warmup: Int = 10) throws -> BenchMeasurement {
        let (browser, host, _, folder) = try makeBrowser()
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let world = host.backgroundWorld else { throw BrowserError("the bench background is missing") }
        let pair = try world.evaluate("""
            (() => {
              // Built once: the figure is the storage pair, not the caller making its object.
              // Entry 0 changes every round, so each set writes something.
              const items = {};
              for (let i = 0; i < 1000; i++) items["key" + i] = { id: i, host: "host" + i + ".example", tags: ["a", "b"], on: i % 2 === 0 };
              return (n) => { items.key0.id = n; return browser.storage.local.set(items).then(() => browser.storage.local.get(null)); };
            })()
            """, sourceURL: "adv-bench:///storage.js")
        return try BenchMeasurement.timing("storage_us", unit: "us", iterations: iterations, warmup: warmup) { index in
            try browser.session.settle(try pair.call([world.context.number(Double(index))]))
        }
    }
}
