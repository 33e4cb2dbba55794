import BrowserRuntime
import Dispatch
import JSKit
import ScenarioKit
import WebRuntime

/// Measures getComputedStyle with style invalidation (issue 3's `computed_style_us`).
///
/// A 2,000-element page with 300 author rules. Each round makes one DOM change (a class that rules
/// select on, toggled on one card, which can change the style of that card's subtree only), then
/// reads `getComputedStyle(e).display` for every element; the sample is the round's time per call.
/// `computed_style_cold_us` is the same pass right after a sheet change (`insertRule`), when every
/// element must be recomputed.
///
/// Wall time is read here, and only here: benchmarks measure the host, scenarios never do.
public enum ComputedStyleBenchmark {
    /// `rules` author rules of the kinds content filters and pages use: classes, ids, attributes,
    /// descendant and child combinators, :is/:not, and a few media queries. None depends on
    /// siblings, so a DOM change invalidates only the changed subtree.
    public static func styleSheet(rules: Int = 300) -> String {
        var css = ""
        for index in 0..<rules {
            let display = ["block", "flex", "grid", "inline-block", "none", "table"][index % 6]
            switch index % 10 {
            case 0: css += ".card.c\(index) h2 { display: \(display) }\n"
            case 1: css += "#s\(index % 60) > article { visibility: visible; display: \(display) }\n"
            case 2: css += "a[href=\"/a/\(index % 9)\"] { pointer-events: auto }\n"
            case 3: css += ".feed .ad-slot.v\(index) { display: none !important }\n"
            case 4: css += "section:not(.x\(index)) > .card p.t\(index) { opacity: 0.9 }\n"
            case 5: css += ":is(h2, h3).h\(index) { display: \(display) }\n"
            case 6: css += "@media (min-width: \(600 + index)px) { .m\(index) span { display: \(display) } }\n"
            case 7: css += "[data-slot=\"\(index)\"] { position: relative }\n"
            case 8: css += "body .feed article.card.k\(index) { width: \(index)px }\n"
            default: css += "div.banner-\(index), .promo-\(index) { display: none }\n"
            }
        }
        return css
    }

    /// The benchmark page: the startup fixture grown to `elements` elements, with the sheet.
    public static func fixture(elements: Int = 2000, rules: Int = 300) -> String {
        StartupBenchmark.fixture(elements: elements)
            .replacingOccurrences(of: "<title>bench</title>", with: "<title>bench</title><style>\(styleSheet(rules: rules))</style>")
    }

    /// Times `iterations` rounds (after `warmup` untimed ones).
    /// - Returns: the warm figure (`computed_style_us`) and the cold one (`computed_style_cold_us`).
    /// - Throws: when the runtime cannot load the page.
    public static func run(iterations: Int = 30, warmup: Int = 5, rules: Int = 300) throws -> [BenchMeasurement] {
        let session = try WebSession()
        let page = try session.open(html: fixture(rules: rules), url: "https://bench.example/style")
        try session.loop.runUntilIdle()
        let world = page.pageWorld
        try world.evaluate("""
            var __all = Array.from(document.body.getElementsByTagName('*'));
            var __cards = Array.from(document.querySelectorAll('article.card'));
            function __pass() { var n = 0; for (var i = 0; i < __all.length; i++) { if (getComputedStyle(__all[i]).display === 'none') n++; } return n; }
            """, sourceURL: "bench:setup")
        let count = Double(try world.evaluate("__all.length", sourceURL: "bench:count").toNumber())
        var warm: [Double] = []
        var cold: [Double] = []
        for round in 0..<(warmup + iterations) {
            try world.evaluate("__cards[\(round * 7) % __cards.length].classList.toggle('c\(round * 10 % rules)')", sourceURL: "bench:mutate")
            let start = DispatchTime.now().uptimeNanoseconds
            try world.evaluate("__pass()", sourceURL: "bench:pass")
            let end = DispatchTime.now().uptimeNanoseconds
            try world.evaluate("document.styleSheets[0].insertRule('.never-\(round) { display: none }', 0)", sourceURL: "bench:sheet")
            let coldStart = DispatchTime.now().uptimeNanoseconds
            try world.evaluate("__pass()", sourceURL: "bench:pass")
            let coldEnd = DispatchTime.now().uptimeNanoseconds
            if round >= warmup {
                warm.append(Double(end - start) / 1000 / count)
                cold.append(Double(coldEnd - coldStart) / 1000 / count)
            }
        }
        return [BenchMeasurement(name: "computed_style_us", unit: "us", samples: warm),
                BenchMeasurement(name: "computed_style_cold_us", unit: "us", samples: cold)]
    }
}
