import BrowserRuntime
import Foundation
import JSKit
import ScenarioKit
import TestSupport
import Testing
import WebRuntime

/// A finished scenario leaves nothing behind: its browser, session, context group and every
/// realm and protected value in it are freed when the run ends (issue 18, point 8).
@Suite struct ScenarioRunnerTests {
    /// The cheapest shipped scenario: one page, the background, no popup (about 70 ms in a
    /// debug build, most of it making the session).
    static let cheap = "runtime/notes-permission-denied"

    static func scenario(_ id: String) throws -> Scenario {
        try Support.catalog.scenario(at: Support.catalog.scenariosFolder.appendingPathComponent(id + ".json"))
    }

    /// The objects of a run are gone once `run` returns: for every extension context (whose
    /// `runtime.getManifest` held the engine realm) and for a popup (whose `window.close` held
    /// its extension's host, and with it the host's JavaScript values). In an engine of its own
    /// (`--isolate`) the context group goes too; a warm engine stays in its pool, and only there.
    @Test(arguments: [cheap, "sources/popup-typed-host", "picker/match-similar"])
    func aFinishedScenarioFreesItsSession(_ id: String) throws {
        for reusing in [false, true] {
            let pool = EnginePool()
            pool.reuses = reusing
            let probe = ReleaseProbe()
            let result = ScenarioRunner.run(try Self.scenario(id), pool: pool, watching: { browser in
                probe.watch(browser, as: "browser")
                probe.watch(browser.session, as: "session")
                probe.watch(browser.session.group, as: "context group")
                probe.watch(browser.session.realm.context, as: "engine realm")
                probe.watch(browser.loop, as: "event loop")
            })
            #expect(result.failures.isEmpty, "\(result.failures)")
            let released = result.sessionReleased
            #expect(released)
            if reusing {
                #expect(probe.survivors == ["context group", "engine realm"], "still alive after \(id) in a warm engine: \(probe.survivors)")
                pool.drain()
            }
            #expect(probe.survivors.isEmpty, "still alive after \(id)\(reusing ? " once its pool let the engine go" : ""): \(probe.survivors)")
        }
    }
}
