import Foundation
import ScenarioKit
import TestSupport
import Testing
import WebRuntime

/// Issue 21, point 3: ADV on a page that first replaces the DOM and JavaScript APIs a content
/// script calls and freezes the prototypes (fixtures/sites/hostile/hostile-dom.js) hides, repairs
/// and reports exactly as on the friendly page: the two traces are the same line for line, but
/// for the page's own script request and its final check that none of its traps saw anything of
/// the extension.
@Suite struct HostilePageWorldTests {
    static let pairs = [
        ("cosmetic/sheet-attacks", "hostile-pages/sheet-attacks"),
        ("cosmetic/builtin-hiding", "hostile-pages/builtin-hiding"),
        ("toolbar/cosmetic-only", "hostile-pages/activity-reported"),
    ]

    static func run(_ name: String) throws -> ScenarioResult {
        let scenario = try Support.catalog.scenario(at: Support.catalog.scenariosFolder.appendingPathComponent(name + ".json"))
        return ScenarioRunner.run(scenario, pool: EnginePool())
    }

    @Test(arguments: pairs) func theExtensionSeesNothingOfThePagesPatches(friendly: String, hostile: String) throws {
        let calm = try Self.run(friendly), fought = try Self.run(hostile)
        #expect(calm.failures.isEmpty, "\(calm.failures)")
        #expect(fought.failures.isEmpty, "\(fought.failures)")
        let pageOwn = fought.trace.split(separator: "\n", omittingEmptySubsequences: false).filter {
            $0.contains("hostile-dom.js") || $0.contains("[hostile.listeners")
        }
        // The page's own: its script, and the check that ends with every trap at zero.
        #expect(pageOwn.count == 2, "\(pageOwn)")
        #expect(pageOwn.last?.hasSuffix(#"== "0,0,0,0,0,0,0": ok"#) == true, "\(pageOwn)")
        let rest = fought.trace.split(separator: "\n", omittingEmptySubsequences: false).filter { !pageOwn.contains($0) }
        #expect(rest.joined(separator: "\n") == calm.trace)
    }
}
