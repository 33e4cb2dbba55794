import BrowserRuntime
import Dispatch
import Foundation
import JSKit
import ScenarioKit
import WebRuntime

/// Measures how fast the runtime brings up pages and sessions (the foundation's figures).
///
/// - `fresh_page_ms`: a navigation in an existing session: new page-world and content-world
///   realms, a 200-element fixture parsed into a new document, one content script run.
/// - `fresh_session_ms`: a new context group from nothing to the same point.
/// - `pooled_session_ms`: a new browser in a warm engine (see ``EnginePool``) to the same point.
/// - `bare_session_ms`: the floor under `fresh_session_ms`: a new context group with nothing but
///   domino in it (loaded by a CommonJS loader of a few lines), the same page parsed with
///   `domino.createDocument` and the content script's work done in the same realm. No worlds,
///   events, layers, console or clock: what JavaScriptCore and domino alone cost.
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
    public static func freshPage(iterations: Int = 60, warmup: Int = 15) throws -> BenchMeasurement {
        let html = fixture()
        let session = try WebSession()
        var page = try session.open(html: html, url: "https://bench.example/0", contentScripts: [contentScript])
        return try BenchMeasurement.timing("fresh_page_ms", unit: "ms", iterations: iterations, warmup: warmup, { index in
            page = try session.navigate(from: page, html: html, url: "https://bench.example/\(index + 1)", contentScripts: [contentScript])
        }, untimed: { _ in try session.loop.runUntilIdle() })
    }

    /// Times `iterations` sessions made from nothing up to the same point as a fresh page.
    /// - Throws: when the runtime cannot start.
    public static func freshSession(iterations: Int = 50, warmup: Int = 3) throws -> BenchMeasurement {
        let html = fixture()
        // Each session is released after its timing, not inside the next one.
        var session: WebSession?
        return try BenchMeasurement.timing("fresh_session_ms", unit: "ms", iterations: iterations, warmup: warmup, { _ in
            session = try WebSession()
            _ = try session?.open(html: html, url: "https://bench.example/", contentScripts: [contentScript])
        }, untimed: { _ in session = nil })
    }

    /// Times `iterations` browsers made in a warm engine (one a worker keeps, as `adv-harness run`
    /// does) up to the same point as a fresh page: new realms, a new document parsed, the content
    /// script run. The engine goes back to its pool between timings, untimed, as after a scenario.
    /// - Throws: when the runtime cannot start.
    public static func pooledSession(iterations: Int = 60, warmup: Int = 5) throws -> BenchMeasurement {
        let html = fixture()
        let pool = EnginePool()
        pool.maximumIdle = 1
        var browser: Browser?
        return try BenchMeasurement.timing("pooled_session_ms", unit: "ms", iterations: iterations, warmup: warmup, { _ in
            let made = try Browser(engine: try pool.take())
            _ = try made.session.open(html: html, url: "https://bench.example/", contentScripts: [contentScript])
            browser = made
        }, untimed: { _ in
            guard let made = browser else { return }
            let engine = pool.retire(made.session)
            browser = nil
            if let engine { pool.park(engine) }
        })
    }

    /// Times `iterations` bare sessions (see `bare_session_ms` above).
    /// - Throws: ``MissingPackageError`` when node-domino is missing, ``JSError`` when it fails.
    public static func bareSession(iterations: Int = 50, warmup: Int = 3) throws -> BenchMeasurement {
        let domino = try JSPackages.domino()
        let html = fixture()
        // Each session is released after its timing, not inside the next one.
        var kept: [JSContext] = []
        return try BenchMeasurement.timing("bare_session_ms", unit: "ms", iterations: iterations, warmup: warmup, { _ in
            kept = [try bareSession(domino: domino, html: html)]
        }, untimed: { _ in kept.removeAll() })
    }

    /// A new context group holding domino alone, `html` parsed into its `document` and the
    /// benchmark's content script run on it. Returns the realm (which keeps its group alive).
    public static func bareSession(domino: JSPackage, html: String) throws -> JSContext {
        let context = JSContext(group: JSContextGroup())
        let compile = context.function("compile", length: 1) { call in
            let path = try call.argument(0).toString()
            let source = try SourceCache.shared.text(atPath: path)
            return try call.context.evaluate("(function (exports, require, module, __filename, __dirname) {" + source + "\n})", sourceURL: "file://" + path)
        }
        // domino's WindowTimers module captures Node's timer functions as it loads.
        _ = try context.evaluate("var global = this; var setTimeout = function () {}, clearTimeout = setTimeout, setInterval = setTimeout, clearInterval = setTimeout;")
        try context.globalObject.set("domino", try context.evaluate(bareLoader).call([compile, context.string(domino.main)]))
        try context.globalObject.set("html", context.string(html))
        _ = try context.evaluate("var document = domino.createDocument(html);\n" + contentScript.source)
        return context
    }

    /// Node's module wrapper around each file: relative requires load the file beside the
    /// requiring one, any other goes to domino's main (domino requires no other package).
    private static let bareLoader = """
    (function (compile, main) {
      const cache = Object.create(null);
      function normalize(path) {
        const out = [];
        for (const part of path.split("/")) { if (part === "..") out.pop(); else if (part !== "" && part !== ".") out.push(part); }
        return "/" + out.join("/");
      }
      function load(path) {
        if (cache[path]) return cache[path].exports;
        const module = cache[path] = { exports: {} };
        const dir = path.slice(0, path.lastIndexOf("/"));
        const require = (request) => load(request[0] === "." ? normalize(dir + "/" + request).replace(/(\\.js)?$/, ".js") : main);
        compile(path).call(module.exports, module.exports, require, module, path, dir);
        return module.exports;
      }
      return load(main);
    })
    """
}
