import JSKit
import TestSupport
import Testing
import WebRuntime

/// User prompts, windows, reportError and User Timing on the virtual clock.
@Suite struct WindowAPITests {
    /// alert, confirm and prompt return at once as a dismissed dialog would, and show in the
    /// console trace of the world that called them; open is a blocked popup.
    @Test func promptsAnswerAtOnceAndAreTraced() throws {
        let (session, page) = try Support.load("<p>x</p>", url: "https://site.example/a")
        let answers = try Support.eval(page.pageWorld, "JSON.stringify([alert('hello'), confirm('Leave?'), prompt('Name', 'x'), open('/popup'), print(), close()])") as? String
        #expect(answers == "[null,false,null,null,null,null]")
        _ = try Support.eval(try page.contentWorld(for: "ext"), "alert(42)")
        #expect(page.console.map(\.description) == [
            "0ms page alert: hello", "0ms page confirm: Leave?", "0ms page prompt: Name",
            "0ms page open: /popup (blocked: the harness opens no windows)", "0ms page print: ", "0ms content:ext alert: 42",
        ])
        #expect(session.trace.dump().contains("page1/page console alert: hello"))
    }

    /// The DOM's interface objects and namespaces are window members that are not enumerable
    /// (WebIDL 3.7.1, 3.13.1), made in each world when its scripts first name them; operations
    /// and attributes stay enumerable.
    @Test func interfaceObjectsAreHiddenMembersEachWorldMakesWhenNamed() throws {
        let (_, page) = try Support.load("<p>x</p>", contentScripts: [Support.contentScript("")])
        let content = try page.contentWorld(for: "test")
        let listed = "(() => { const names = []; for (const k in window) names.push(k); return ['HTMLElement', 'Node', 'CSS', 'NodeFilter', 'setTimeout', 'document', 'fetch'].map((k) => names.includes(k)).join(); })()"
        #expect(try Support.eval(page.pageWorld, listed) as? String == "false,false,false,false,true,true,true")
        #expect(try Support.eval(content, "[typeof HTMLElement, 'HTMLParagraphElement' in window, document.querySelector('p') instanceof HTMLParagraphElement, window.Node === Node, typeof NoSuchInterface].join()") as? String == "function,true,true,true,undefined")
        #expect(try Support.eval(content, "(() => { try { NoSuchInterface; return 'found'; } catch (e) { return e.constructor === ReferenceError; } })()") as? Bool == true)
        // A page that replaces an interface, before or after reading it, changes only its own world.
        try page.pageWorld.evaluate("HTMLDivElement = null; window.HTMLSpanElement = 'patched'; Text; Text = 1;", sourceURL: "page")
        #expect(try Support.eval(page.pageWorld, "[HTMLDivElement, HTMLSpanElement, Text].join()") as? String == ",patched,1")
        #expect(try Support.eval(content, "[typeof HTMLDivElement, typeof HTMLSpanElement, typeof Text, document.createElement('div') instanceof HTMLDivElement].join()") as? String == "function,function,function,true")
        #expect(try Support.eval(page.pageWorld, "Element; JSON.stringify(Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Window.prototype), 'Element'), (k, v) => typeof v === 'function' ? v.name : v)") as? String == #"{"value":"Element","writable":true,"enumerable":false,"configurable":true}"#)
    }

    @Test func reportErrorReportsWithoutThrowing() throws {
        let (session, page) = try Support.load("<p>x</p>", url: "https://site.example/a")
        #expect(try Support.eval(page.pageWorld, "reportError(new RangeError('late')); 'went on'") as? String == "went on")
        #expect(session.trace.dump().contains("RangeError: late"))
        #expect(page.errors.map(\.description) == ["0ms page RangeError: late (at test:eval:1:27) [during reportError]"])
        #expect(throws: JSError.self) { try page.pageWorld.evaluate("reportError()", sourceURL: "t") }
    }

    /// Marks and measures read the virtual clock; a page that wraps performance.now moves only
    /// itself, not the runtime's own timing (IntersectionObserver entries).
    @Test func userTimingFollowsTheVirtualClock() throws {
        let (session, page) = try Support.load("<div id=t data-adv-box='0 0 10 10'></div>", url: "https://site.example/a")
        try session.loop.advance(by: .milliseconds(250))
        _ = try Support.eval(page.pageWorld, "performance.mark('start')")
        try session.loop.advance(by: .milliseconds(40))
        let measured = try Support.eval(page.pageWorld, "const m = performance.measure('step', 'start'); [m.startTime, m.duration].join()") as? String
        #expect(measured == "250,40")
        _ = try Support.eval(page.pageWorld, """
            performance.now = () => 1e9;
            window.times = [];
            new IntersectionObserver((entries) => entries.forEach((e) => times.push(e.time))).observe(document.getElementById('t'));
            """)
        try session.loop.advance(by: .milliseconds(100))
        let times = try Support.eval(page.pageWorld, "times.join()") as? String
        #expect(times.map { !$0.isEmpty && !$0.contains("1000000000") } == true, "\(times ?? "nil")")
    }

    /// Channel messages are tasks of the page, in posting order, each after the tasks queued
    /// before it; a closed page gets none.
    @Test func channelMessagesAreTasksOfThePage() throws {
        let (session, page) = try Support.load("<p>x</p>", url: "https://site.example/a")
        _ = try Support.eval(page.pageWorld, """
            window.seen = [];
            const channel = new MessageChannel();
            channel.port2.onmessage = (e) => seen.push(e.data.n);
            setTimeout(() => seen.push('timer'), 0);
            channel.port1.postMessage({ n: 1 });
            channel.port1.postMessage({ n: 2 });
            seen.push('sync');
            window.keep = channel;
            """)
        try session.loop.runUntilIdle()
        #expect(try Support.eval(page.pageWorld, "seen.join()") as? String == "sync,timer,1,2")
        _ = try Support.eval(page.pageWorld, "keep.port1.postMessage({ n: 3 })")
        let next = try session.navigate(from: page, html: "<p>y</p>", url: "https://site.example/b")
        try session.loop.runUntilIdle()
        #expect(page.isClosed && next.errors.isEmpty && page.errors.isEmpty)
    }

    /// ResizeObserver reports in the rendering update, after the frame's animation callbacks, and
    /// follows the harness's boxes: a box the test sets is a resize, a move is not.
    @Test func resizeObservationsFollowTheBoxesAfterAnimationFrames() throws {
        let (session, page) = try Support.load("<div id=t data-adv-box='0 0 10 10'></div>", url: "https://site.example/a")
        _ = try Support.eval(page.pageWorld, """
            window.seen = [];
            new ResizeObserver((entries) => seen.push(entries.map((e) => e.contentRect.width + 'x' + e.contentRect.height).join())).observe(document.getElementById('t'));
            requestAnimationFrame(() => seen.push('raf'));
            """)
        try session.loop.advance(by: .milliseconds(20))
        #expect(try Support.eval(page.pageWorld, "seen.join(' ')") as? String == "raf 10x10")
        try page.setBox("#t", Rect(x: 50, y: 50, width: 10, height: 10))
        try session.loop.advance(by: .milliseconds(20))
        try page.setBox("#t", Rect(x: 50, y: 50, width: 30, height: 10))
        try session.loop.advance(by: .milliseconds(20))
        #expect(try Support.eval(page.pageWorld, "seen.join(' ')") as? String == "raf 10x10 30x10")
    }
}
