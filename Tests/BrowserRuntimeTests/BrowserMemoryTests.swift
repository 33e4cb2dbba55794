import BrowserRuntime
import JSKit
import TestSupport
import Testing
import WebRuntime

/// A browser is freed with everything it made once the last reference to it goes: no host
/// function's closure, loop task or extension object keeps its session's realms alive.
@Suite struct BrowserMemoryTests {
    /// Watches what a browser with frames, ports, a popup, a navigation and a suspended
    /// background made, then drops it.
    @Test func aBrowserIsFreedWithEverythingItMade() throws {
        let probe = ReleaseProbe()
        do {
            let (browser, host) = try Support.outlineBrowser()
            let tab = try browser.openTab(url: "https://news.test/")
            try browser.loop.runUntilIdle()
            let popup = try browser.openPopup(host)
            try browser.loop.runUntilIdle()
            let manifestName = try Support.eval(popup.pageWorld, "browser.runtime.getManifest().name") as? String
            #expect(manifestName == "Frame Outline")
            // A timer still pending when the browser goes.
            if let top = tab.page { _ = try Support.eval(top.pageWorld, "setInterval(() => {}, 1000); 0") }
            probe.watch(browser, as: "browser")
            probe.watch(browser.session, as: "session")
            probe.watch(browser.session.group, as: "context group")
            probe.watch(browser.session.realm.context, as: "engine realm")
            probe.watch(browser.loop, as: "event loop")
            probe.watch(host, as: "extension host")
            probe.watch(tab, as: "tab")
            probe.watch(popup, as: "popup")
            probe.watch(popup.pageWorld.context, as: "popup realm")
            for frame in tab.allFrames {
                probe.watch(frame, as: "frame \(frame.id)")
                probe.watch(frame.page, as: "page of frame \(frame.id)")
                for world in frame.page?.worlds ?? [] { probe.watch(world.context, as: "\(world.name) realm of frame \(frame.id)") }
            }
            probe.watch(host.backgroundWorld?.context, as: "background realm")
            browser.suspendBackground(of: host)
            try browser.navigate(tab, to: "https://news.test/inner.html")
            try browser.loop.runUntilIdle()
        }
        #expect(probe.count > 12)
        #expect(probe.survivors.isEmpty, "still alive: \(probe.survivors)")
    }

    /// A world kept after its browser is gone still runs script (it keeps its realms), but its
    /// `browser.*` calls fail as from an invalidated context instead of reaching a freed browser.
    @Test func aWorldKeptPastItsBrowserGetsInvalidatedCalls() throws {
        let probe = ReleaseProbe()
        let world: World
        do {
            let (browser, host) = try Support.outlineBrowser(pages: ["https://news.test/": "<p>top</p>"])
            let tab = try browser.openTab(url: "https://news.test/")
            try browser.loop.runUntilIdle()
            world = try #require(try tab.page?.contentWorld(for: host.id))
            probe.watch(browser, as: "browser")
        }
        #expect(probe.survivors.isEmpty)
        let answer = try Support.eval(world, """
            (() => {
              const results = [];
              for (const call of [() => browser.storage.local.get(), () => browser.runtime.connect({ name: "late" })]) {
                try { call(); results.push("called"); } catch (error) { results.push(error.message); }
              }
              return results.join(" | ");
            })()
            """) as? String
        #expect(answer == "Extension context invalidated. | Extension context invalidated.")
    }
}
