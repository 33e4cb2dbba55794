import Foundation
import ScenarioKit
import StrictJSON

/// The fidelity suites' view of fixtures/fidelity: each part's case file and WebKit's recorded
/// values, run through the same code as `adv-harness probe` (ScenarioKit's ProbeRun).
public enum Fidelity {
    static func caseFile(_ part: String) throws -> ProbeCaseFile {
        try ProbeCaseFile.load(Support.fixtures.appendingPathComponent("fidelity/cases/\(part).json"),
                               named: "fixtures/fidelity/cases/\(part).json")
    }

    static func expectations(_ part: String) throws -> ProbeExpectations {
        try ProbeExpectations.load(Support.fixtures.appendingPathComponent("fidelity/expected/\(part).json"),
                                   named: "fixtures/fidelity/expected/\(part).json")
    }

    /// Every probe of `part`, in file order (empty when the case file cannot be read; the
    /// suites' `caseFileLoads` tests fail in that case).
    public static func probes(_ part: String) -> [FidelityProbe] {
        guard let file = try? caseFile(part) else { return [] }
        return file.fixtures.flatMap { fixture in
            fixture.probes.enumerated().map { FidelityProbe(part: part, fixture: fixture.name, index: $0.offset, expression: $0.element) }
        }
    }

    /// The number of fixtures and probes in `part`'s case file and in its expectations.
    /// - Throws: when either file is missing or malformed.
    public static func counts(_ part: String) throws -> (fixtures: Int, probes: Int, recorded: Int) {
        let file = try caseFile(part)
        let expected = try expectations(part)
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
        let actual = try results(of: fixture, prelude: file.prelude, part: probe.part)
        guard probe.index < actual.count else { throw FidelityError("the runner returned \(actual.count) results") }
        if let difference = fixture.differences[probe.index] {
            return (difference.adv.canonical, actual[probe.index].canonical, difference.why)
        }
        guard let recorded = try expectations(probe.part).results[probe.fixture], probe.index < recorded.count else {
            throw FidelityError("no WebKit result for \(probe); run fixtures/fidelity/record.py \(probe.part)")
        }
        return (recorded[probe.index].canonical, actual[probe.index].canonical, nil)
    }

    // One run per fixture, shared by its probes (tests run in parallel, hence the lock).
    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [String: [JSONValue]] = [:]

    static func results(of fixture: ProbeCaseFile.Fixture, prelude: String, part: String) throws -> [JSONValue] {
        let key = part + "/" + fixture.name
        lock.lock()
        if let cached = cache[key] { lock.unlock(); return cached }
        lock.unlock()
        let values = try ProbeRun.values(of: fixture, prelude: prelude)
        lock.lock()
        cache[key] = values
        lock.unlock()
        return values
    }
}

/// A fidelity run failed before any comparison.
public struct FidelityError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
