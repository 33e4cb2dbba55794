import Testing
@testable import JSKit

@Suite struct ScriptWatchdogTests {
    @Test func aDeadlineStopsOneLongCallAndNamesWhereItWas() throws {
        let group = JSContextGroup()
        let watchdog = ScriptWatchdog(group: group, callLimit: 60)
        let context = JSContext(group: group)
        watchdog.setDeadline(after: 0.2, reason: "exceeded the test's budget")
        let error = #expect(throws: JSError.self) {
            try context.evaluate("function spin() {\n  for (;;) {}\n}\nspin();", sourceURL: "https://site.example/spin.js")
        }
        #expect(error?.isTermination == true)
        let termination = try #require(watchdog.termination)
        #expect(termination.reason == "exceeded the test's budget")
        #expect(termination.location?.hasPrefix("https://site.example/spin.js:") == true, "\(termination)")
        #expect(termination.stack?.contains("spin@https://site.example/spin.js") == true, "\(termination)")
        // Once stopped, the group runs nothing more: a later script stops at its first check.
        let later = #expect(throws: JSError.self) { try context.evaluate("var end = Date.now() + 2000; while (Date.now() < end) {}") }
        #expect(later?.isTermination == true)
    }

    @Test func thePerCallLimitStopsACallButNotTheCallsBeforeIt() throws {
        let group = JSContextGroup()
        let watchdog = ScriptWatchdog(group: group, callLimit: 0.3, quantum: 0.02)
        // A backstop, so that a broken limit fails this test instead of hanging it.
        watchdog.setDeadline(after: 20, reason: "reached the backstop")
        let context = JSContext(group: group)
        // A call that checks in many times under the limit is left alone (the callback re-arms).
        let busy = try context.evaluate("var n = 0; var end = Date.now() + 150; while (Date.now() < end) n++; n > 0")
        #expect(busy.boolValue == true)
        #expect(watchdog.termination == nil)
        #expect(throws: JSError.self) { try context.evaluate("for (;;) {}", sourceURL: "loop.js") }
        #expect(watchdog.termination?.reason == "ran past the per-call limit of 0.3 s")
        #expect(watchdog.termination?.location?.hasPrefix("loop.js:") == true)
    }

    @Test func hostCodeInAChainOfMicrotasksStopsIt() throws {
        // Each promise job is its own engine entry, too short for the engine's time limit; a
        // job that calls the host lets the host stop the chain.
        let group = JSContextGroup()
        let watchdog = ScriptWatchdog(group: group, callLimit: 60)
        let context = JSContext(group: group)
        var checks = 0
        try context.globalObject.set("check", context.function("check") { call in
            checks += 1
            watchdog.checkDeadline(from: call.context, what: "the host's check")
            return nil
        })
        watchdog.setDeadline(after: 0.2, reason: "exceeded the test's budget")
        // The script itself returns; the chain runs in the microtask checkpoint after it, and a
        // termination there does not reach the caller as an exception: the watchdog records it.
        _ = try? context.evaluate("function again() { check(); Promise.resolve().then(again); }\nagain();", sourceURL: "chain.js")
        #expect(checks > 1)
        #expect(watchdog.termination?.reason == "exceeded the test's budget")
        #expect(watchdog.termination?.location?.hasPrefix("chain.js:") == true, "\(String(describing: watchdog.termination))")
        #expect(throws: JSError.self) { try context.evaluate("var end = Date.now() + 2000; while (Date.now() < end) {}") }
    }

    @Test func hostFramesArePassedOverWhenNamingTheLocation() throws {
        let group = JSContextGroup()
        let watchdog = ScriptWatchdog(group: group, callLimit: 60)
        watchdog.hostURLPrefixes = ["adv-runtime:"]
        let stack = "call@adv-runtime:///boot/platform.js:17:63\nspin@https://a.example/:3:69\n@adv-runtime:///events/events.js:76:69"
        #expect(watchdog.innermostLocation(stack) == "https://a.example/:3:69")
        #expect(watchdog.innermostLocation("@\ncall@adv-runtime:///boot/platform.js:17:63") == "code without a URL (an inline event handler, eval or Function)")
        #expect(watchdog.innermostLocation("@\nrun@https://a.example/app.js:2:5") == "code without a URL called from https://a.example/app.js:2:5")
    }

    @Test func checkingBetweenCallsStopsOnceTheDeadlinePasses() throws {
        let group = JSContextGroup()
        let watchdog = ScriptWatchdog(group: group, callLimit: 60)
        watchdog.setDeadline(after: 3600, reason: "far away")
        #expect(watchdog.checkDeadline() == nil)
        watchdog.setDeadline(after: 0, reason: "already passed")
        #expect(watchdog.checkDeadline()?.reason == "already passed")
        #expect(watchdog.isStopped)
        let context = JSContext(group: group)
        #expect(throws: JSError.self) { try context.evaluate("var end = Date.now() + 2000; while (Date.now() < end) {}") }
    }
}
