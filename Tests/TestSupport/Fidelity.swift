import BrowserRuntime
import Foundation
import JSKit
import ScenarioKit
import WebRuntime
import StrictJSON

/// Loads the fidelity case files and runs their fixtures in the harness, the same way the
/// recorder runs them in WebKit (fixtures/fidelity/runner.js).
public enum Fidelity {
    /// The bytes of `fixtures/<path>`, checked as strict JSON first (StrictJSON): a trailing
    /// comma or a repeated key in a case file is an error with its line and column, not a probe
    /// silently kept or lost by Foundation's lenient reader.
    /// - Throws: `JSONInputError` naming the file, or the read error.
    static func strictJSON(_ path: String) throws -> Data {
        let data = Data(try Support.fixture(path).utf8)
        do { _ = try JSONValue.parse(data) } catch { throw error.with(file: "fixtures/" + path) }
        return data
    }

    struct Fixture: Decodable {
        let name: String
        let html: String
        let probes: [String]
        let viewport: [Int]?
        let userCSS: String?
        let userLevel: String?
        let resources: [String: String]?
        /// The page's URL when it is not served by the recorder's scheme (an https address).
        let url: String?
        /// Probes where the harness knowingly differs from WebKit: index → {adv, why}.
        let differences: [String: Difference]?
    }
    struct Difference: Decodable {
        let adv: JSONValue
        let why: String
    }
    struct CaseFile: Decodable {
        let part: String
        /// Markup put before every fixture's (the doctype and probe helpers).
        let prelude: String?
        let fixtures: [Fixture]
    }
    struct Expected: Decodable {
        let engine: String
        let results: [String: [JSONValue]]
    }

    /// Every probe of `part`, in file order (empty when the case file cannot be read; the
    /// suites' `caseFileLoads` tests fail in that case).
    public static func probes(_ part: String) -> [FidelityProbe] {
        guard let file = try? caseFile(part) else { return [] }
        return file.fixtures.flatMap { fixture in
            fixture.probes.enumerated().map { FidelityProbe(part: part, fixture: fixture.name, index: $0.offset, expression: $0.element) }
        }
    }

    static func caseFile(_ part: String) throws -> CaseFile {
        try JSONDecoder().decode(CaseFile.self, from: try strictJSON("fidelity/cases/\(part).json"))
    }

    /// The number of fixtures and probes in `part`'s case file and in its expectations.
    /// - Throws: when either file is missing or malformed.
    public static func counts(_ part: String) throws -> (fixtures: Int, probes: Int, recorded: Int) {
        let file = try caseFile(part)
        let expected = try JSONDecoder().decode(Expected.self, from: try strictJSON("fidelity/expected/\(part).json"))
        return (file.fixtures.count, file.fixtures.reduce(0) { $0 + $1.probes.count }, expected.results.values.reduce(0) { $0 + $1.count })
    }

    /// The expected and actual value of `probe`, as canonical JSON text, and the reason when
    /// the expectation is a documented difference from WebKit.
    /// - Throws: when the fixture cannot be run or WebKit recorded nothing for it.
    public static func check(_ probe: FidelityProbe) throws -> (expected: String, actual: String, knownDifference: String?) {
        let file = try caseFile(probe.part)
        guard let fixture = file.fixtures.first(where: { $0.name == probe.fixture }) else {
            throw FidelityError("no fixture '\(probe.fixture)' in cases/\(probe.part).json")
        }
        let actual = try results(of: fixture, prelude: file.prelude ?? "", part: probe.part)
        guard probe.index < actual.count else { throw FidelityError("the runner returned \(actual.count) results") }
        if let difference = fixture.differences?[String(probe.index)] {
            return (difference.adv.canonical, actual[probe.index].canonical, difference.why)
        }
        let expected = try JSONDecoder().decode(Expected.self, from: try strictJSON("fidelity/expected/\(probe.part).json"))
        guard let recorded = expected.results[probe.fixture], probe.index < recorded.count else {
            throw FidelityError("no WebKit result for \(probe); run fixtures/fidelity/record.py \(probe.part)")
        }
        return (recorded[probe.index].canonical, actual[probe.index].canonical, nil)
    }

    // One run per fixture, shared by its probes (tests run in parallel, hence the lock).
    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [String: [JSONValue]] = [:]

    static func results(of fixture: Fixture, prelude: String, part: String) throws -> [JSONValue] {
        let key = part + "/" + fixture.name
        lock.lock()
        if let cached = cache[key] { lock.unlock(); return cached }
        lock.unlock()
        let values = try run(fixture, prelude: prelude)
        lock.lock()
        cache[key] = values
        lock.unlock()
        return values
    }

    static func run(_ fixture: Fixture, prelude: String) throws -> [JSONValue] {
        let session = try WebSession()
        let base = "fidelity://test/0/"
        let resources = fixture.resources ?? [:]
        session.resourceLoader = { url in
            guard url.hasPrefix(base) else { return nil }
            return resources[String(url.dropFirst(base.count))]
        }
        let page = try session.open(html: prelude + fixture.html, url: fixture.url ?? base + "page.html")
        if let viewport = fixture.viewport, viewport.count == 2 {
            try page.setViewport(Viewport(width: viewport[0], height: viewport[1]))
        }
        if let css = fixture.userCSS, !css.isEmpty {
            try page.injectUserStyleSheet(css, extensionID: "fidelity", level: fixture.userLevel == "user" ? .user : .author)
        }
        try session.loop.runUntilIdle()
        let template = try Support.fixture("fidelity/runner.js")
        let probesJSON = String(decoding: try JSONSerialization.data(withJSONObject: fixture.probes), as: UTF8.self)
        let body = template.replacingOccurrences(of: "__PROBES__", with: probesJSON)
        let promise = try page.pageWorld.evaluate("(async function () {\n" + body + "\n})()", sourceURL: "fidelity:runner")
        let text = try session.settle(promise).toString()
        return try JSONDecoder().decode([JSONValue].self, from: Data(text.utf8))
    }
}

/// A fidelity run failed before any comparison.
public struct FidelityError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
