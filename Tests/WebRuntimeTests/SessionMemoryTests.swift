import JSKit
import TestSupport
import Testing
import WebRuntime

/// A session is freed with its pages, worlds and pending work once the last reference to it goes.
@Suite struct SessionMemoryTests {
    @Test func aSessionIsFreedWithItsPagesWorldsAndPendingTimers() throws {
        let probe = ReleaseProbe()
        do {
            let content = Support.contentScript("""
                setTimeout(() => console.log("late"), 60000);
                requestAnimationFrame(() => {});
                """)
            let (session, page) = try Support.load("""
                <p id="a">a</p><script>setInterval(() => {}, 10); queueMicrotask(() => {}); fetch("/data").catch(() => {});</script>
                """, contentScripts: [content], runToIdle: false)
            try session.loop.advance(by: .milliseconds(50))
            let next = try session.navigate(from: page, html: "<p>next</p>", url: "https://site.example/next", contentScripts: [content])
            probe.watch(session, as: "session")
            probe.watch(session.group, as: "context group")
            probe.watch(session.realm.context, as: "engine realm")
            probe.watch(session.loop, as: "event loop")
            for (name, each) in [("first", page), ("second", next)] {
                probe.watch(each, as: "\(name) page")
                for world in each.worlds { probe.watch(world.context, as: "\(world.name) realm of the \(name) page") }
            }
            #expect(!session.loop.isIdle)
            // The second page runs no script of its own: it has no page world to free.
            #expect(page.hasPageWorld && !next.hasPageWorld)
        }
        #expect(probe.count == 9)
        #expect(probe.survivors.isEmpty, "still alive: \(probe.survivors)")
    }
}
