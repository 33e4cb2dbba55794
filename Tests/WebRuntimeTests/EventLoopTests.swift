import JSKit
import TestSupport
import Testing
import WebRuntime

/// Ordering cases from the HTML event loop (8.1.7) and timers (8.6) sections.
@Suite struct EventLoopTests {
    func run(_ script: String, until: VirtualTime? = nil) throws -> (WebSession, Page, [String]) {
        let session = try WebSession()
        let page = try session.open(html: "<script>\(script)</script>", url: "https://loop.example/")
        if let until { try session.loop.run(until: until) } else { try session.loop.runUntilIdle() }
        #expect(page.errors.isEmpty, "\(page.errors)")
        return (session, page, Support.logs(page))
    }

    @Test func promiseCallbacksRunBeforeTheNextTimer() throws {
        let (_, _, logs) = try run("""
            setTimeout(() => console.log("t1"), 0);
            setTimeout(() => { console.log("t2"); Promise.resolve().then(() => console.log("p2")); queueMicrotask(() => console.log("m2")); }, 0);
            setTimeout(() => console.log("t3"), 0);
            Promise.resolve().then(() => console.log("p1"));
            console.log("sync");
            """)
        #expect(logs == ["sync", "p1", "t1", "t2", "p2", "m2", "t3"])
    }

    /// A task that re-queues itself at the same instant never lets time move: the run stops at
    /// the task limit and names it, even among other tasks.
    @Test func aTaskRequeueingItselfStopsAtTheLimitAndIsNamed() throws {
        let loop = EventLoop()
        loop.maximumTasksPerRun = 30_000
        func again() { loop.schedule(label: "spinner at page.html:3:7") { again() } }
        again()
        for index in 0..<5 { loop.schedule(after: .milliseconds(Double(index)), label: "one-off \(index)") {} }
        #expect(throws: LoopError.self) { try loop.run(until: .seconds(1)) }
        do {
            try loop.run(until: .seconds(1))
        } catch {
            #expect("\(error)".hasPrefix("the event loop ran 30000 tasks without reaching idle: spinner at page.html:3:7 (ran "))
        }
    }

    @Test func timersRunInDueOrderThenSchedulingOrder() throws {
        let (_, _, logs) = try run("""
            setTimeout(() => console.log("b@20"), 20);
            setTimeout(() => console.log("a@10"), 10);
            setTimeout(() => console.log("c@20"), 20);
            setTimeout(() => console.log("neg->0"), -5);
            setTimeout(() => console.log("nan->0"), NaN);
            setTimeout(() => console.log("frac->1"), 1.9);
            """)
        #expect(logs == ["neg->0", "nan->0", "frac->1", "a@10", "b@20", "c@20"])
    }

    @Test func nestedTimersAreClampedAfterFiveLevels() throws {
        // HTML 8.6 timer initialization steps: a nesting level above 5 raises timeouts below
        // 4 ms to 4 ms. Levels 1...6 run at 0 ms; level 7 is the first clamped one.
        let (_, _, logs) = try run("""
            let level = 0;
            function tick() { level++; console.log(level + "@" + performance.now()); if (level < 9) setTimeout(tick, 0); }
            setTimeout(tick, 0);
            """)
        #expect(logs == ["1@0", "2@0", "3@0", "4@0", "5@0", "6@0", "7@4", "8@8", "9@12"])
    }

    @Test func intervalsAreReArmedAfterTheirCallback() throws {
        let (session, page, logs) = try run("""
            let n = 0;
            const id = setInterval((tag) => { n++; console.log(tag + n + "@" + performance.now()); if (n === 3) clearInterval(id); }, 10, "i");
            """)
        #expect(logs == ["i1@10", "i2@20", "i3@30"])
        #expect(session.loop.activeTimerCount(owner: page.id) == 0)
    }

    @Test func clearedAndUnknownTimersAreIgnored() throws {
        let (_, _, logs) = try run("""
            const a = setTimeout(() => console.log("never"), 5);
            clearTimeout(a); clearTimeout(a); clearTimeout(12345); clearInterval("x");
            const b = setTimeout(() => console.log("once"), 5);
            console.log(typeof a, a > 0, b > a);
            """)
        #expect(logs == ["number true true", "once"])
    }

    @Test func animationFramesRunAt60HzAfterTasksDueAtTheSameInstant() throws {
        // Frame n starts at floor(n * 1000 / 60) ms: 16.666, 33.333, 50. A timer due at 50 ms runs
        // before the frame at 50 ms (task, microtask checkpoint, then rendering).
        let (_, _, logs) = try run("""
            let frames = 0;
            function frame(t) { frames++; console.log("frame " + t); if (frames < 3) requestAnimationFrame(frame); }
            requestAnimationFrame(frame);
            setTimeout(() => console.log("timer 50"), 50);
            const cancelled = requestAnimationFrame(() => console.log("cancelled frame"));
            cancelAnimationFrame(cancelled);
            """)
        #expect(logs == ["frame 16.666", "frame 33.333", "timer 50", "frame 50"])
    }

    @Test func virtualClockDrivesDateAndPerformance() throws {
        let session = try WebSession()
        let page = try session.open(html: "<p>clock</p>", url: "https://loop.example/")
        let world = page.pageWorld
        #expect(try Support.eval(world, "Date.now()") as? Double == session.options.epoch)
        #expect(try Support.eval(world, "new Date().toISOString()") as? String == "2026-01-01T00:00:00.000Z")
        try session.loop.advance(by: .milliseconds(1500))
        #expect(try Support.eval(world, "performance.now()") as? Double == 1500)
        #expect(try Support.eval(world, "Date.now() - performance.timeOrigin") as? Double == 1500)
        #expect(try Support.eval(world, "new Date(0).getTime()") as? Double == 0)
        #expect(try Support.eval(world, "typeof Date()") as? String == "string")
        #expect(try Support.eval(world, "new Date() instanceof Date") as? Bool == true)
        #expect(session.loop.now == .milliseconds(1500))
    }

    @Test func randomnessIsSeededPerPageAndWorld() throws {
        func draws() throws -> [Double] {
            let (_, page) = try Support.load("<p>x</p>", contentScripts: [Support.contentScript("")])
            let a = try Support.eval(page.pageWorld, "[Math.random(), Math.random()]") as? [Any?]
            let b = try Support.eval(try page.contentWorld(for: "test"), "[Math.random()]") as? [Any?]
            return ((a ?? []) + (b ?? [])).compactMap { $0 as? Double }
        }
        let first = try draws()
        #expect(first.count == 3)
        #expect(first == (try draws()))
        #expect(Set(first).count == 3)
        #expect(first.allSatisfy { $0 >= 0 && $0 < 1 })
    }

    @Test func neverEndingIntervalStopsAtTheLimitNamingItsSource() throws {
        let session = try WebSession()
        let page = try session.open(html: "<p>poll</p>\n<script>\nsetInterval(function poll() {}, 1000);\n</script>", url: "https://loop.example/poll.html")
        let error = #expect(throws: LoopError.self) { try session.loop.runUntilIdle(limit: .seconds(30)) }
        let text = error.map { "\($0)" } ?? ""
        #expect(text.contains("interval timer 1 (1000 ms) set at https://loop.example/poll.html:3:12"), "\(text)")
        #expect(text.contains("30000ms"))
        #expect(session.loop.now <= .seconds(30))
        #expect(page.errors.isEmpty)
    }

    @Test func advanceRunsOnlyWhatIsDue() throws {
        let session = try WebSession()
        let page = try session.open(html: "<script>setTimeout(() => console.log('a'), 100); setTimeout(() => console.log('b'), 300);</script>", url: "https://loop.example/")
        try session.loop.advance(by: .milliseconds(99))
        #expect(Support.logs(page).isEmpty)
        try session.loop.advance(by: .milliseconds(1))
        #expect(Support.logs(page) == ["a"])
        try session.loop.run(until: .milliseconds(1000))
        #expect(Support.logs(page) == ["a", "b"])
        #expect(session.loop.now == .milliseconds(1000))
        #expect(session.loop.isIdle)
    }

    @Test func swiftAwaitsAPromiseWhileTheLoopRuns() throws {
        let session = try WebSession()
        let page = try session.open(html: "<p>x</p>", url: "https://loop.example/")
        let promise = try page.pageWorld.evaluate("new Promise(r => setTimeout(() => r('done at ' + performance.now()), 250))", sourceURL: "test")
        #expect(try session.settle(promise).stringValue == "done at 250")
        let rejected = try page.pageWorld.evaluate("new Promise((_, j) => setTimeout(() => j(new TypeError('nope')), 10))", sourceURL: "test")
        let error = #expect(throws: JSError.self) { try session.settle(rejected) }
        #expect(error?.message == "nope")
        let never = try page.pageWorld.evaluate("new Promise(() => {})", sourceURL: "test")
        #expect(throws: LoopError.self) { try session.settle(never, limit: .seconds(1)) }
    }

    @Test func exceptionsInCallbacksAreReportedAndTheLoopGoesOn() throws {
        let session = try WebSession()
        let page = try session.open(html: """
            <script>
            setTimeout(function boom() { null.x; }, 5);
            setTimeout(() => console.log("still running"), 10);
            requestAnimationFrame(() => { throw new Error("frame failed"); });
            queueMicrotask(() => { throw new RangeError("micro failed"); });
            </script>
            """, url: "https://loop.example/errors.html")
        try session.loop.runUntilIdle()
        #expect(Support.logs(page) == ["still running"])
        let messages = page.errors.map { $0.report.error.message }
        #expect(messages == ["micro failed", "null is not an object (evaluating 'null.x')", "frame failed"])
        let timerError = page.errors[1].report
        #expect(timerError.error.location == "https://loop.example/errors.html:2:34")
        #expect(timerError.during.contains("timeout timer 1 (5 ms) set at https://loop.example/errors.html:2:11"))
    }
}
