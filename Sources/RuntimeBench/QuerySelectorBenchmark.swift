import Dispatch
import WebRuntime

/// Measures `querySelectorAll` over the 2,000-element page of ``ComputedStyleBenchmark``
/// (issue 20's `query_selector_all_us`): the selectors content scripts query with (a class, an
/// id under a type, attributes, descendant and child combinators, :is/:not, :has) from the
/// document, one pass over all of them per sample; the sample is the pass's time per query.
///
/// Wall time is read here, and only here: benchmarks measure the host, scenarios never do.
public enum QuerySelectorBenchmark {
    /// The selectors of one pass.
    public static let selectors = [
        "article.card", ".feed .ad-slot", "#s7 > article", "a[href^=\"/a/\"]", "[data-slot]",
        "section:not(.x) > .card p", ":is(h2, h3)", "article:has(a)", "div.banner-9, .promo-9", "body *",
    ]

    /// Times `iterations` passes (after `warmup` untimed ones).
    /// - Throws: when the runtime cannot load the page.
    public static func run(iterations: Int = 30, warmup: Int = 5) throws -> BenchMeasurement {
        let session = try WebSession()
        let page = try session.open(html: ComputedStyleBenchmark.fixture(), url: "https://bench.example/query")
        try session.loop.runUntilIdle()
        let world = page.pageWorld
        let list = selectors.map { "'" + $0.replacingOccurrences(of: "'", with: "\\'") + "'" }.joined(separator: ", ")
        try world.evaluate("""
            var __selectors = [\(list)];
            function __pass() { var n = 0; for (var i = 0; i < __selectors.length; i++) n += document.querySelectorAll(__selectors[i]).length; return n; }
            """, sourceURL: "bench:setup")
        var samples: [Double] = []
        for round in 0..<(warmup + iterations) {
            let start = DispatchTime.now().uptimeNanoseconds
            try world.evaluate("__pass()", sourceURL: "bench:pass")
            let end = DispatchTime.now().uptimeNanoseconds
            if round >= warmup { samples.append(Double(end - start) / 1000 / Double(selectors.count)) }
        }
        return BenchMeasurement(name: "query_selector_all_us", unit: "us", samples: samples)
    }
}
