import Foundation
import JSKit
import StrictJSON
import WebRuntime

/// Runs case-file fixtures in the harness exactly as the recorder runs them in WebKit: the page
/// at `fidelity://test/0/page.html` (or the fixture's `url`), its resources beside it, the user
/// style sheet injected, the load settled on the virtual clock, then the shared probe runner
/// (`JS/probe-runner.js`) in the page's main world.
public enum ProbeRun {
    /// The isolated world's name, as the recorder names it.
    static let probeWorld = "adv-probe"

    /// The runner's source with `__PROBES__` still in it.
    static func runnerTemplate() throws -> String {
        guard let url = Bundle.module.url(forResource: "probe-runner", withExtension: "js", subdirectory: "JS") else {
            throw ProbeRunError("the probe runner 'JS/probe-runner.js' is missing from the ScenarioKit bundle; rebuild with 'swift build'")
        }
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// The value of each of the fixture's probes, in order, as the runner serialised them.
    /// - Throws: ``ProbeRunError`` when the page cannot be made or the runner gives no results.
    public static func values(of fixture: ProbeCaseFile.Fixture, prelude: String) throws -> [JSONValue] {
        let session = try WebSession()
        let base = "fidelity://test/0/"
        let resources = fixture.resources
        session.resourceLoader = { url in
            guard url.hasPrefix(base) else { return nil }
            return resources[String(url.dropFirst(base.count))]
        }
        // The recorder's isolated world is `adv-probe` (fixtures/fidelity/recorder/recorder.c):
        // its content script and its probes share one content world here too.
        let scripts = fixture.contentScript.map {
            [ContentScript(extensionID: probeWorld, source: $0, url: "fidelity:content-script", runAt: .documentStart)]
        } ?? []
        let page = try session.open(html: prelude + fixture.html, url: fixture.url ?? base + "page.html", contentScripts: scripts)
        if let viewport = fixture.viewport {
            try page.setViewport(Viewport(width: viewport.width, height: viewport.height))
        }
        if let css = fixture.userCSS, !css.isEmpty {
            try page.injectUserStyleSheet(css, extensionID: "fidelity", level: fixture.userLevel == "user" ? .user : .author)
        }
        try session.loop.runUntilIdle()
        let probes = String(decoding: try JSONSerialization.data(withJSONObject: fixture.probes), as: UTF8.self)
        let body = try runnerTemplate().replacingOccurrences(of: "__PROBES__", with: probes)
        let world = fixture.world == .isolated ? try page.contentWorld(for: probeWorld) : page.pageWorld
        let promise = try world.evaluate("(async function () {\n" + body + "\n})()", sourceURL: "fidelity:runner")
        let text = try session.settle(promise).toString()
        let values: JSONValue
        do { values = try JSONValue.parse(text) } catch { throw ProbeRunError("the runner's result is not JSON: \(error)") }
        guard case let .array(list) = values, list.count == fixture.probes.count else {
            throw ProbeRunError("the runner returned \(text.prefix(200)) for \(fixture.probes.count) probes")
        }
        return list
    }

    /// One probe compared with what WebKit recorded.
    public struct Comparison: Sendable {
        public let fixture: String
        public let index: Int
        public let expression: String
        /// What the harness gave, as canonical JSON.
        public let actual: String
        /// What WebKit gave (or, for a documented difference, the harness's documented value).
        public let expected: String?
        /// The reason when the probe is a documented difference.
        public let knownDifference: String?
        public var agrees: Bool { actual == expected }
    }

    /// Every probe of `file` (or of its fixtures named in `only`), compared with `expectations`
    /// when given. A fixture that cannot run gives its error in each of its probes' `actual`.
    public static func compare(_ file: ProbeCaseFile, with expectations: ProbeExpectations?,
                               only: Set<String>? = nil) -> [Comparison] {
        var out: [Comparison] = []
        for fixture in file.fixtures where only?.contains(fixture.name) ?? true {
            let values: [String]
            do { values = try Self.values(of: fixture, prelude: file.prelude).map(\.canonical) } catch {
                values = Array(repeating: "(the fixture did not run: \(error))", count: fixture.probes.count)
            }
            let recorded = expectations?.results[fixture.name]
            for (index, expression) in fixture.probes.enumerated() {
                var expected: String?
                var why: String?
                if let difference = fixture.differences[index] {
                    expected = difference.adv.canonical
                    why = difference.why
                } else if let recorded, index < recorded.count {
                    expected = recorded[index].canonical
                }
                out.append(Comparison(fixture: fixture.name, index: index, expression: expression, actual: values[index],
                                      expected: expectations == nil && why == nil ? nil : expected, knownDifference: why))
            }
        }
        return out
    }
}

extension ProbeRun {
    /// The harness's values in the format record.py writes (`{"engine", "results"}`), one
    /// fixture a line, so it can be compared with a recording by eye or with a JSON diff.
    public static func expectationsText(_ comparisons: [Comparison], engine: String) -> String {
        var results: [String: [String]] = [:]
        for item in comparisons { results[item.fixture, default: []].append(item.actual) }
        let lines = results.keys.sorted().map { "  \(JSONValue.string($0).canonical): [" + results[$0]!.joined(separator: ", ") + "]" }
        return "{\n \"engine\": \(JSONValue.string(engine).canonical),\n \"results\": {\n" + lines.joined(separator: ",\n") + "\n }\n}"
    }
}

/// A fixture could not be run.
public struct ProbeRunError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
