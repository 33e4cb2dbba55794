import JSKit
import TestSupport
import Testing
import WebRuntime

/// Declared boxes, scrolling and the visibility judgement. Boxes declared by the harness have no
/// WebKit counterpart (WebKit lays pages out); the judgement follows what a user sees: CSS 2.1
/// §9.2.4 (display:none generates no box), §11.2 (visibility:hidden boxes are invisible), CSS
/// Color 4 §3.2 (opacity 0), and CSSOM View's hit testing for what covers an element.
@Suite struct GeometryAPITests {
    struct VisibilityCase: Sendable, CustomStringConvertible {
        let html: String
        let visible: Bool
        let reason: String
        var description: String { reason.isEmpty ? "visible: \(html)" : reason }
    }

    static let cases: [VisibilityCase] = [
        VisibilityCase(html: "<div id=t data-adv-box='10 10 100 50'></div>", visible: true, reason: ""),
        VisibilityCase(html: "<div id=t style='display:none' data-adv-box='10 10 100 50'></div>", visible: false, reason: "display:none on <div#t>"),
        VisibilityCase(html: "<section id=p style='display:none'><div id=t data-adv-box='10 10 100 50'></div></section>", visible: false, reason: "display:none on <section#p>"),
        VisibilityCase(html: "<div id=p style='visibility:hidden'><div id=t data-adv-box='10 10 100 50'></div></div>", visible: false, reason: "visibility:hidden"),
        VisibilityCase(html: "<div id=p style='visibility:hidden'><div id=t style='visibility:visible' data-adv-box='10 10 100 50'></div></div>", visible: true, reason: ""),
        VisibilityCase(html: "<div id=p style='opacity:0'><div id=t data-adv-box='10 10 100 50'></div></div>", visible: false, reason: "opacity:0 on <div#p>"),
        VisibilityCase(html: "<div id=t data-adv-box='10 10 0 50'></div>", visible: false, reason: "empty box"),
        VisibilityCase(html: "<div id=t></div>", visible: false, reason: "empty box"),
        VisibilityCase(html: "<div id=t data-adv-box='10 5000 100 50'></div>", visible: false, reason: "outside the viewport"),
        VisibilityCase(html: "<div id=t data-adv-box='10 10 100 50'></div><div id=o style='position:absolute;left:0;top:0;width:500px;height:500px'></div>",
                       visible: false, reason: "covered by <div#o>"),
        VisibilityCase(html: "<div id=t data-adv-box='10 10 100 50'></div><div id=o style='position:absolute;left:0;top:0;width:500px;height:500px;pointer-events:none'></div>",
                       visible: true, reason: ""),
        VisibilityCase(html: "<div id=t data-adv-box='10 10 100 50'><span id=c data-adv-box='20 20 10 10'></span></div>", visible: true, reason: ""),
    ]

    @Test(arguments: cases) func visibilityIsJudgedAsAUserWouldSeeIt(_ testCase: VisibilityCase) throws {
        let (session, page) = try Support.load("<style>body { margin: 0 }</style>" + testCase.html)
        defer { withExtendedLifetime(session) {} }
        let judged = try page.visibility(of: "#t")
        #expect(judged.isVisible == testCase.visible)
        #expect(judged.reason == testCase.reason)
    }

    @Test func declaredBoxesDriveTheGeometryAPIs() throws {
        let (session, page) = try Support.load("<div id=card><img id=ad></div><p id=text>x</p>")
        defer { withExtendedLifetime(session) {} }
        try page.setBox("#card", Rect(x: 0, y: 100, width: 300, height: 250))
        try page.setBox("#ad", Rect(x: 10, y: 110, width: 280, height: 200))
        #expect(try page.rect(of: "#ad") == Rect(x: 10, y: 110, width: 280, height: 200))
        #expect(try Support.eval(page.pageWorld, "document.getElementById('ad').offsetWidth") as? Double == 280)
        #expect(try Support.eval(page.pageWorld, "document.elementFromPoint(20, 120).id") as? String == "ad")
        #expect(try Support.eval(page.pageWorld, "document.elementFromPoint(5, 105).id") as? String == "card")
        try page.scroll(toX: 0, y: 100)
        #expect(try page.rect(of: "#ad") == Rect(x: 10, y: 10, width: 280, height: 200))
        #expect(try Support.eval(page.pageWorld, "scrollY") as? Double == 100)
        try page.pageWorld.evaluate("document.getElementById('card').style.display = 'none'", sourceURL: "t")
        #expect(try page.rect(of: "#ad") == nil)
        #expect(try Support.eval(page.pageWorld, "document.getElementById('ad').offsetParent") == nil)
    }

    @Test func intersectionObserversFollowScrollingAndBoxChanges() throws {
        let (session, page) = try Support.load("""
            <div id=t data-adv-box='0 1000 100 100'></div>
            <script>
            const seen = [];
            new IntersectionObserver((entries) => seen.push(...entries.map((e) => e.isIntersecting + ' ' + e.intersectionRatio)), { threshold: [0, 0.5, 1] })
              .observe(document.getElementById('t'));
            </script>
            """)
        defer { withExtendedLifetime(session) {} }
        try page.scroll(toX: 0, y: 250)
        try session.loop.runUntilIdle()
        try page.scroll(toX: 0, y: 300)
        try session.loop.runUntilIdle()
        try page.setViewport(Viewport(width: 1280, height: 600))
        try session.loop.runUntilIdle()
        try page.setBox("#t", Rect(x: 0, y: 350, width: 100, height: 100))
        try session.loop.runUntilIdle()
        let seen = try Support.eval(page.pageWorld, "seen") as? [String]
        // Scrolled to 250 the box shows half, at 300 all of it; a 600 px viewport hides it; the
        // box moved up shows it whole again. Entries come only when a threshold is crossed.
        #expect(seen == ["false 0", "true 0.5", "true 1", "false 0", "true 1"], "\(String(describing: seen))")
    }
    /// Layout keeps the boxes of subtrees a change did not touch (layout/geometry.js); after
    /// each of 300 seeded random changes (inserted and removed elements, style attributes,
    /// classes that restyle descendants) every element's box and offsetTop must be what a layout
    /// from scratch gives (a sheet change forces one).
    @Test func incrementalLayoutMatchesALayoutFromScratch() throws {
        let (session, page) = try Support.load("""
            <style>body { margin: 0 } .big .x { height: 20px; margin-top: 7px } .pad { padding: 3px }
            .abs { position: absolute; left: 10px; top: 5px; width: 30px; height: 9px }</style><div id=root></div>
            """)
        defer { withExtendedLifetime(session) {} }
        for seed in [7, 99, 12345] {
            let script = """
                (() => { let seed = \(seed); const rnd = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
                const root = document.getElementById('root'); root.textContent = ''; const all = [root];
                const styles = ['height: 5px', 'margin: 3px 0', 'padding-top: 2px', '', 'width: 50%', 'position: relative; top: 2px', 'display: none', 'border: 1px solid'];
                const classes = ['x', 'big', 'pad', 'abs', ''];
                const snap = () => Array.from(document.querySelectorAll('*')).map((e) => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height, e.offsetTop].join(','); }).join(';');
                let bad = 0;
                for (let step = 0; step < 300; step++) {
                  const op = rnd(5), target = all[rnd(all.length)];
                  if (op === 0 || all.length < 5) { const d = document.createElement(rnd(4) ? 'div' : 'span'); d.setAttribute('style', styles[rnd(styles.length)]); d.className = classes[rnd(classes.length)]; target.appendChild(d); all.push(d); }
                  else if (op === 1) target.setAttribute('style', styles[rnd(styles.length)]);
                  else if (op === 2) target.className = classes[rnd(classes.length)];
                  else if (op === 3 && target !== root) { target.remove(); for (const e of all.slice()) if (!e.isConnected) all.splice(all.indexOf(e), 1); }
                  else { const d = document.createElement('div'); d.style.height = rnd(10) + 'px'; target.insertBefore(d, target.firstChild); all.push(d); }
                  const incremental = snap();
                  const sheet = document.createElement('style'); document.head.appendChild(sheet); sheet.remove();
                  if (snap() !== incremental) bad++;
                }
                return bad; })()
                """
            #expect(try Support.eval(page.pageWorld, script) as? Double == 0, "seed \(seed)")
        }
    }
}
