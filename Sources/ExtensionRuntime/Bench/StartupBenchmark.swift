import Dispatch
import JSKit

/// Measures how fast the runtime brings up pages and sessions (the foundation's figures).
///
/// - `fresh_page_ms`: a navigation in an existing session: new page-world and content-world
///   realms, a 200-element fixture parsed into a new document, one content script run.
/// - `fresh_session_ms`: a new context group from nothing to the same point.
///
/// Wall time is read here, and only here: benchmarks measure the host, scenarios never do.
public enum StartupBenchmark {
    /// A deterministic page with `elements` elements inside body (nested sections of cards).
    public static func fixture(elements: Int = 200) -> String {
        var html = "<!DOCTYPE html><html><head><title>bench</title></head><body>\n"
        var made = 0
        var section = 0
        while made < elements {
            html += "<section class=\"feed\" id=\"s\(section)\">\n"
            made += 1
            var card = 0
            while card < 9, made + 3 <= elements {
                let ad = (section * 9 + card) % 7 == 3
                html += "  <article class=\"card\(ad ? " ad-slot" : "")\"><h2>Title \(section).\(card)</h2><p>Body text <a href=\"/a/\(card)\">more</a></p></article>\n"
                made += 4
                card += 1
            }
            section += 1
            if made + 3 > elements, made < elements {
                for _ in made..<elements { html += "<span>x</span>" }
                made = elements
            }
        }
        return html + "</body></html>\n"
    }

    /// The content script run on every benchmark page.
    public static let contentScript = ContentScript(
        extensionID: "bench",
        source: "for (const e of document.querySelectorAll('.ad-slot')) e.style.display = 'none';",
        url: "safari-web-extension://bench/content.js",
        runAt: .documentEnd)

    /// Times `iterations` navigations in one session (after `warmup` untimed ones).
    /// - Throws: when the runtime cannot load a page.
    public static func freshPage(iterations: Int = 60, warmup: Int = 15) throws -> Measurement {
        let html = fixture()
        let session = try WebSession()
        var page = try session.open(html: html, url: "https://bench.example/0", contentScripts: [contentScript])
        return try Measurement.timing("fresh_page_ms", unit: "ms", iterations: iterations, warmup: warmup, { index in
            page = try session.navigate(from: page, html: html, url: "https://bench.example/\(index + 1)", contentScripts: [contentScript])
        }, untimed: { _ in try session.loop.runUntilIdle() })
    }

    /// Times `iterations` sessions made from nothing up to the same point as a fresh page.
    /// - Throws: when the runtime cannot start.
    public static func freshSession(iterations: Int = 50, warmup: Int = 3) throws -> Measurement {
        let html = fixture()
        // Each session is released after its timing, not inside the next one.
        var session: WebSession?
        return try Measurement.timing("fresh_session_ms", unit: "ms", iterations: iterations, warmup: warmup, { _ in
            session = try WebSession()
            _ = try session?.open(html: html, url: "https://bench.example/", contentScripts: [contentScript])
        }, untimed: { _ in session = nil })
    }
}
