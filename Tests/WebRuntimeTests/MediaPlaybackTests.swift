import JSKit
import TestSupport
import Testing
import WebRuntime

/// Media on the virtual clock. Real WebKit plays media in real time from a real decoder, so the
/// recorder cannot express these: the expectations follow HTML 4.8.11 — the load algorithm
/// (4.8.11.5: loadstart, then durationchange, loadedmetadata … canplaythrough once the resource's
/// duration is known), playing (4.8.11.8: play then playing; timeupdate about every 250 ms, which
/// is WebKit's HTMLMediaElement maxTimeupdateEventFrequency; at the end timeupdate, pause, ended),
/// seeking (4.8.11.9: clamped to [0, duration], seeking then timeupdate and seeked) and a change
/// of src re-running the load algorithm (emptied first).
@Suite struct MediaPlaybackTests {
    enum Step: Sendable {
        case play, pause
        case seek(Double)
        case wait(Int)
        case script(String)
    }

    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let attributes: String
        let steps: [Step]
        let expected: [String]
        var description: String { name }
    }

    static func page(_ attributes: String) -> String {
        """
        <video id=v \(attributes)></video>
        <script>
        const seen = [];
        const v = document.getElementById("v");
        for (const type of ["loadstart", "durationchange", "loadedmetadata", "loadeddata", "canplay", "canplaythrough", "play", "playing",
                            "pause", "timeupdate", "seeking", "seeked", "ended", "emptied", "ratechange", "volumechange", "error", "abort", "waiting"]) {
          v.addEventListener(type, () => seen.push(Math.round(performance.now()) + " " + type + " " + v.currentTime.toFixed(2)));
        }
        </script>
        """
    }

    static let loaded = ["0 loadstart 0.00", "0 durationchange 0.00", "0 loadedmetadata 0.00", "0 loadeddata 0.00", "0 canplay 0.00", "0 canplaythrough 0.00"]

    static let cases: [Case] = [
        Case(name: "loading a declared resource", attributes: "src='clip.mp4?duration=2'", steps: [], expected: loaded),
        Case(name: "playing advances with the clock and fires timeupdate every 250 ms", attributes: "src='clip.mp4?duration=2'",
             steps: [.play, .wait(600)], expected: loaded + ["0 play 0.00", "0 playing 0.00", "250 timeupdate 0.25", "500 timeupdate 0.50"]),
        Case(name: "playing to the end", attributes: "src='clip.mp4?duration=0.6'", steps: [.play, .wait(1000)],
             expected: loaded + ["0 play 0.00", "0 playing 0.00", "250 timeupdate 0.25", "500 timeupdate 0.50", "600 timeupdate 0.60", "600 pause 0.60", "600 ended 0.60"]),
        Case(name: "pausing from the harness", attributes: "src='clip.mp4?duration=2'", steps: [.play, .wait(300), .pause, .wait(500)],
             expected: loaded + ["0 play 0.00", "0 playing 0.00", "250 timeupdate 0.25", "300 timeupdate 0.30", "300 pause 0.30"]),
        Case(name: "seeking past the end clamps to the duration", attributes: "src='clip.mp4?duration=2'", steps: [.seek(9)],
             expected: loaded + ["0 seeking 2.00", "0 timeupdate 2.00", "0 seeked 2.00"]),
        Case(name: "seeking before the start clamps to zero", attributes: "src='clip.mp4?duration=2'", steps: [.seek(1), .seek(-3)],
             expected: loaded + ["0 seeking 1.00", "0 timeupdate 1.00", "0 seeked 1.00", "0 seeking 0.00", "0 timeupdate 0.00", "0 seeked 0.00"]),
        Case(name: "playbackRate scales the clock", attributes: "src='clip.mp4?duration=5'", steps: [.script("v.playbackRate = 2"), .play, .wait(500)],
             expected: loaded + ["0 ratechange 0.00", "0 play 0.00", "0 playing 0.00", "250 timeupdate 0.50", "500 timeupdate 1.00"]),
        Case(name: "a new src resets the element", attributes: "src='clip.mp4?duration=2'", steps: [.play, .wait(300), .script("v.src = 'other.mp4?duration=4'"), .wait(10)],
             expected: loaded + ["0 play 0.00", "0 playing 0.00", "250 timeupdate 0.25", "300 abort 0.00", "300 emptied 0.00", "300 durationchange 0.00", "300 loadstart 0.00",
                                 "300 durationchange 0.00", "300 loadedmetadata 0.00", "300 loadeddata 0.00", "300 canplay 0.00", "300 canplaythrough 0.00"]),
        Case(name: "an unknown resource fails to load", attributes: "src='nothing.mp4'", steps: [], expected: ["0 loadstart 0.00", "0 error 0.00"]),
        Case(name: "loop seeks back to the start", attributes: "src='clip.mp4?duration=0.3' loop", steps: [.play, .wait(400)],
             expected: loaded + ["0 play 0.00", "0 playing 0.00", "250 timeupdate 0.25", "300 seeking 0.00", "300 timeupdate 0.00", "300 seeked 0.00"]),
        Case(name: "autoplay starts once the resource can play", attributes: "src='clip.mp4?duration=0.6' autoplay muted", steps: [],
             expected: loaded + ["0 play 0.00", "0 playing 0.00", "250 timeupdate 0.25", "500 timeupdate 0.50", "600 timeupdate 0.60", "600 pause 0.60", "600 ended 0.60"]),
        Case(name: "volume and muted fire volumechange", attributes: "src='clip.mp4?duration=2'", steps: [.script("v.volume = 0.5; v.muted = true; v.muted = true")],
             expected: loaded + ["0 volumechange 0.00", "0 volumechange 0.00"]),
    ]

    @Test(arguments: cases) func playbackFollowsTheVirtualClock(_ testCase: Case) throws {
        let session = try WebSession()
        let page = try session.open(html: Self.page(testCase.attributes), url: "https://video.example/watch")
        try session.loop.runUntilIdle()
        for step in testCase.steps {
            switch step {
            case .play: try page.playMedia("#v")
            case .pause: try page.pauseMedia("#v")
            case let .seek(time): try page.seekMedia("#v", to: time)
            case let .wait(ms): try session.loop.advance(by: .milliseconds(Double(ms)))
            case let .script(source): try page.pageWorld.evaluate(source, sourceURL: "test:step")
            }
            try session.loop.advance(by: .zero)
        }
        let seen = (try Support.eval(page.pageWorld, "seen") as? [Any?])?.compactMap { $0 as? String }
        #expect(seen == testCase.expected)
        #expect(page.errors.isEmpty)
    }

    @Test func harnessStateAndDeclaredResources() throws {
        let session = try WebSession()
        let page = try session.open(html: "<audio id=a src='/media/song.m4a'></audio>", url: "https://music.example/")
        try page.declareMedia(url: "/media/song.m4a", duration: 3)
        try session.loop.runUntilIdle()
        try page.playMedia("#a")
        try session.loop.advance(by: .milliseconds(1500))
        let state = try page.mediaState("#a")
        #expect(state.duration == 3)
        #expect(state.currentTime == 1.5)
        #expect(!state.paused)
        #expect(state.readyState == 4)
        #expect(state.currentSrc == "https://music.example/media/song.m4a")
        try page.setMediaMuted("#a", true)
        #expect(try page.mediaState("#a").muted)
    }

    @Test func sourceChildrenAreSelectedWhenThereIsNoSrc() throws {
        let session = try WebSession()
        let page = try session.open(html: "<video id=v><source src='a.webm?duration=4' type='video/webm'><source src='b.mp4?duration=9'></video><video id=w></video>",
                                    url: "https://video.example/")
        try session.loop.runUntilIdle()
        #expect(try page.mediaState("#v").duration == 4)
        #expect(try page.mediaState("#v").currentSrc == "https://video.example/a.webm?duration=4")
        try page.pageWorld.evaluate("const s = document.createElement('source'); s.src = 'c.mp4?duration=2'; document.getElementById('w').appendChild(s)", sourceURL: "t")
        try session.loop.runUntilIdle()
        #expect(try page.mediaState("#w").duration == 2)
    }

    @Test func playPromisesSettleAsHTMLSays() throws {
        let session = try WebSession()
        let page = try session.open(html: "<video id=v src='a.mp4?duration=2'></video><video id=w src='missing.mp4'></video>", url: "https://video.example/")
        try session.loop.runUntilIdle()
        let resolved = try page.pageWorld.evaluate("document.getElementById('v').play().then(() => 'resolved')", sourceURL: "t")
        #expect(try session.settle(resolved).toString() == "resolved")
        let aborted = try page.pageWorld.evaluate("const p = document.getElementById('v'); p.pause(); const q = p.play(); p.pause(); q.catch((e) => e.name)", sourceURL: "t")
        #expect(try session.settle(aborted).toString() == "AbortError")
        let failed = try page.pageWorld.evaluate("document.getElementById('w').play().catch((e) => e.name)", sourceURL: "t")
        #expect(try session.settle(failed).toString() == "NotSupportedError")
    }
}
