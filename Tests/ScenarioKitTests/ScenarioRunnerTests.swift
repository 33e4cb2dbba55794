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
    /// its extension's host, and with it the host's JavaScript values).
    @Test(arguments: [cheap, "sources/popup-typed-host", "picker/match-similar"])
    func aFinishedScenarioFreesItsSession(_ id: String) throws {
        let probe = ReleaseProbe()
        let result = ScenarioRunner.run(try Self.scenario(id), watching: { browser in
            probe.watch(browser, as: "browser")
            probe.watch(browser.session, as: "session")
            probe.watch(browser.session.group, as: "context group")
            probe.watch(browser.session.realm.context, as: "engine realm")
            probe.watch(browser.loop, as: "event loop")
        })
        #expect(result.failures.isEmpty, "\(result.failures)")
        #expect(probe.survivors.isEmpty, "still alive after \(id): \(probe.survivors)")
        let released = result.sessionReleased
        #expect(released)
    }

    /// 300 scenarios in one process: once the first 20 have warmed the allocators, the JIT and
    /// the caches, resident memory grows by at most 50 MB (before the fix each run kept its
    /// session, about 12 MB, so this grew by over 3 GB).
    @Test func threeHundredScenariosKeepResidentMemoryFlat() throws {
        let scenario = try Self.scenario(Self.cheap)
        var afterTwenty = 0
        var released = 0
        for index in 1...300 {
            let result = ScenarioRunner.run(scenario)
            #expect(result.failures.isEmpty, "run \(index): \(result.failures)")
            if result.sessionReleased { released += 1 }
            if index == 20 { afterTwenty = Support.residentBytesKept() }
        }
        let growth = Support.residentBytesKept() - afterTwenty
        #expect(released == 300)
        #expect(growth <= 50 * 1_048_576, "resident memory grew by \(growth / 1_048_576) MB from run 20 to run 300")
    }
}
