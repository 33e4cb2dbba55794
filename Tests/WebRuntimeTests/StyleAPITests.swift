import JSKit
import TestSupport
import Testing
import WebRuntime

/// The harness side of the style layer: extension style sheets, the viewport, the sheet-change
/// log, style invalidation, and navigation leaving the new DOM constructors untouched.
@Suite struct StyleAPITests {
    struct Injection: Sendable, CustomStringConvertible {
        let css: String
        let level: UserStyleLevel
        let page: String
        let expected: String
        var description: String { "\(level.rawValue): \(css) over \(page)" }
    }

    // The same rules WebKit applies to WKUserStyleSheet levels (see the cascade fidelity cases
    // user-level-* and author-level-*, recorded in WebKit): user normal < author normal <
    // author !important < user !important; an author-level sheet comes before the page's own.
    static let injections: [Injection] = [
        Injection(css: ".ad { display: none }", level: .user, page: "div { display: block }", expected: "block"),
        Injection(css: ".ad { display: none !important }", level: .user, page: "#x { display: block !important }", expected: "none"),
        Injection(css: ".ad { display: none }", level: .author, page: ".ad { display: flex }", expected: "flex"),
        Injection(css: "div.ad { display: none }", level: .author, page: ".ad { display: flex }", expected: "none"),
        Injection(css: ".ad { display: none !important }", level: .author, page: "#x { display: block }", expected: "none"),
        Injection(css: ".ad { display: none !important }", level: .author, page: ".ad { display: grid !important }", expected: "grid"),
    ]

    @Test(arguments: injections) func injectedSheetsFollowWebKitsUserSheetRules(_ injection: Injection) throws {
        let (session, page) = try Support.load("<style>\(injection.page)</style><div id=x class=ad></div>")
        defer { withExtendedLifetime(session) {} }
        try page.injectUserStyleSheet(injection.css, extensionID: "adv", level: injection.level)
        #expect(try page.computedStyle("#x", "display") == injection.expected)
        #expect(try Support.eval(page.pageWorld, "document.styleSheets.length") as? Double == 1)
        #expect(try page.removeUserStyleSheets(extensionID: "adv") == 1)
        #expect(try page.computedStyle("#x", "display") == (injection.page.contains("grid") ? "grid" : injection.page.contains("flex") ? "flex" : "block"))
    }

    @Test func viewportChangesReevaluateMediaQueriesAndNotifyListeners() throws {
        let (session, page) = try Support.load("""
            <style>@media (max-width: 600px) { #x { display: none } }</style><div id=x></div>
            <script>const changes = []; matchMedia('(max-width: 600px)').addEventListener('change', (e) => changes.push(e.matches + ' ' + innerWidth));</script>
            """)
        defer { withExtendedLifetime(session) {} }
        #expect(try page.computedStyle("#x", "display") == "block")
        try page.setViewport(Viewport(width: 400, height: 800))
        #expect(try page.computedStyle("#x", "display") == "none")
        try page.setViewport(Viewport(width: 400, height: 800, colorScheme: "dark"))
        #expect(try Support.eval(page.pageWorld, "matchMedia('(prefers-color-scheme: dark)').matches") as? Bool == true)
        try page.setViewport(Viewport())
        #expect(try Support.eval(page.pageWorld, "changes") as? [String] == ["true 400", "false 1280"])
    }

    @Test func sheetChangesAreLoggedWhereMutationObserversSeeNothing() throws {
        let (session, page) = try Support.load("""
            <style id=s>div { display: none }</style><div id=d></div>
            <script>
            const records = [];
            new MutationObserver((r) => records.push(...r)).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
            </script>
            """)
        defer { withExtendedLifetime(session) {} }
        _ = try page.takeSheetChanges()
        try page.pageWorld.evaluate("""
            const sheet = document.getElementById('s').sheet;
            sheet.insertRule('p { color: red }', 1); sheet.deleteRule(1); sheet.disabled = true; sheet.disabled = false;
            sheet.cssRules[0].style.display = 'block'; sheet.media.appendMedium('screen');
            """, sourceURL: "test:tamper")
        try session.loop.runUntilIdle()
        #expect(try page.takeSheetChanges().map(\.what) == ["insertRule", "deleteRule", "disabled", "disabled", "style", "media"])
        #expect(try Support.eval(page.pageWorld, "records.length") as? Double == 0)
        try page.pageWorld.evaluate("document.getElementById('s').textContent = 'p {}'", sourceURL: "test:text")
        #expect(try page.takeSheetChanges().map(\.what) == ["text"])
        #expect(try page.takeSheetChanges().isEmpty)
    }

    /// A sheet whose text was parsed before (in this session) is built from what the parse
    /// kept, not read again: it must be the same object tree as a fresh parse (every rule's
    /// selector, declarations in order with their priorities, source offsets) and independent of
    /// the other sheets of that text. Texts with at-rules are parsed each time.
    @Test func aSheetOfAKnownTextIsAFreshEqualSheet() throws {
        let (session, page) = try Support.load("<p>page</p>")
        defer { withExtendedLifetime(session) {} }
        // The rules' source offsets (__starts, __ends) are node-cssom's internals: read in the engine.
        let shapes = try Support.evalInEngine(page, #"""
            const text = '/* c */ .a , .b>p{color:red;color : blue;display:none !important}\n#x{ margin: 0 1px ;}  div[data-k="}"] { }';
            const atRules = "@media print { p { color: red } } .z { top: 1px }";
            const sheetOf = (css) => { const s = document.createElement("style"); s.textContent = css; document.head.appendChild(s); return s.sheet; };
            const [one, two, m, n] = [text, text, atRules, atRules].map(sheetOf);
            const shape = (sheet) => JSON.stringify(Array.from(sheet.cssRules, (r) => [r.constructor.name, r.selectorText, r.cssText, r.__starts, r.__ends,
              r.style && r.style.__starts, r.style && Array.from({ length: r.style.length }, (_, i) => [r.style[i], r.style.getPropertyValue(r.style[i]), r.style.getPropertyPriority(r.style[i])]),
              r.parentStyleSheet === sheet, r.style && r.style.parentRule === r]));
            const before = [shape(one) === shape(two), shape(m) === shape(n), one.cssRules[0] !== two.cssRules[0], one.cssRules[0].style !== two.cssRules[0].style];
            two.cssRules[0].style.setProperty("color", "green");
            two.deleteRule(1);
            [...before, one.cssRules.length, one.cssRules[0].style.color, two.cssRules[0].style.color, shape(one)].join(" | ");
            """#) as? String
        #expect(shapes == ##"true | true | true | true | 3 | blue | green | [["CSSStyleRule",".a , .b>p",".a , .b>p { color: blue; display: none !important; }",8,65,17,[["color","blue",""],["display","none","important"]],true,true],["CSSStyleRule","#x","#x { margin: 0 1px; }",66,86,68,[["margin","0 1px",""]],true,true],["CSSStyleRule","div[data-k=\"}\"]","div[data-k=\"}\"] { }",88,107,104,[],true,true]]"##)
    }

    /// A rule's declaration methods are the interface's operations, shared by every declaration
    /// and checked against their `this`, as WebKit's bindings do.
    @Test func declarationMethodsAreSharedOperations() throws {
        let (session, page) = try Support.load("<style id=s>p { color: red } div { top: 1px }</style>")
        defer { withExtendedLifetime(session) {} }
        let result = try Support.eval(page.pageWorld, """
            const [a, b] = document.getElementById("s").sheet.cssRules;
            const shared = a.style.setProperty === b.style.setProperty && a.style.getPropertyValue === b.style.getPropertyValue;
            let error = "none";
            try { const f = a.style.setProperty; f("color", "blue"); } catch (e) { error = e.constructor.name + ": " + e.message; }
            b.style.setProperty.call(a.style, "color", "green", "important");
            [shared, error, a.style.cssText, b.style.cssText].join(" | ");
            """) as? String
        #expect(result == "true | TypeError: Can only call CSSStyleDeclaration.setProperty on instances of CSSStyleDeclaration | color: green !important; | top: 1px;")
    }

    @Test func aDOMChangeRecomputesOnlyWhatItCanChange() throws {
        var cards = ""
        for index in 0..<50 { cards += "<article id=a\(index) class=card><h2>t</h2><p>b</p></article>" }
        let (session, page) = try Support.load("<style>.card.on h2 { display: none } article p { opacity: 0.5 }</style>" + cards)
        defer { withExtendedLifetime(session) {} }
        let recomputed = """
            (function () { const all = document.body.getElementsByTagName('*'); const before = document._advStyle.recomputed;
              for (let i = 0; i < all.length; i++) getComputedStyle(all[i]).display; return document._advStyle.recomputed - before; })()
            """
        let first = try Support.evalInEngine(page, recomputed) as? Double
        // 50 cards of 3 elements, and their ancestors body and html.
        #expect(first == 152, "\(String(describing: first))")
        #expect(try Support.evalInEngine(page, recomputed) as? Double == 0)
        try page.pageWorld.evaluate("document.getElementById('a7').classList.add('on')", sourceURL: "t")
        #expect(try Support.evalInEngine(page, recomputed) as? Double == 3)
        #expect(try page.computedStyle("#a7 h2", "display") == "none")
        // A rule that depends on siblings makes every DOM change recompute everything.
        try page.pageWorld.evaluate("document.styleSheets[0].insertRule('.card + .card { visibility: hidden }', 0)", sourceURL: "t")
        let all = try Support.evalInEngine(page, recomputed) as? Double
        #expect(all == 152, "\(String(describing: all))")
        #expect(try page.computedStyle("#a1", "visibility") == "hidden")
        try page.pageWorld.evaluate("document.getElementById('a0').remove()", sourceURL: "t")
        let after = try Support.evalInEngine(page, recomputed) as? Double
        #expect(after == 149, "\(String(describing: after))")
        #expect(try page.computedStyle("#a1", "visibility") == "visible")
    }

    /// A style change in one document (another tab's sheet, a frame's viewport) leaves the other
    /// documents' computed styles cached; it still applies in its own.
    @Test func aStyleChangeElsewhereKeepsThisDocumentsStyles() throws {
        let (session, other) = try Support.load("<style id=s>p { opacity: 0.5 }</style><p id=p>other</p>")
        defer { withExtendedLifetime(session) {} }
        var cards = ""
        for _ in 0..<20 { cards += "<article class=card><h2>t</h2><p>b</p></article>" }
        let page = try session.open(html: "<style>article p { opacity: 0.5 }</style>" + cards, url: "https://two.example/")
        let recomputed = """
            (function () { const all = document.body.getElementsByTagName('*'); const before = document._advStyle.recomputed;
              for (let i = 0; i < all.length; i++) getComputedStyle(all[i]).display; return document._advStyle.recomputed - before; })()
            """
        let first = try Support.evalInEngine(page, recomputed) as? Double
        // 20 cards of 3 elements, and their ancestors body and html.
        #expect(first == 62, "\(String(describing: first))")
        try other.pageWorld.evaluate("document.getElementById('s').sheet.insertRule('p { opacity: 0.25 }', 1)", sourceURL: "t")
        try other.setViewport(Viewport(width: 400, height: 300))
        try other.injectUserStyleSheet("p { display: none }", extensionID: "x")
        #expect(try Support.evalInEngine(page, recomputed) as? Double == 0)
        #expect(try other.computedStyle("#p", "opacity") == "0.25")
        #expect(try other.computedStyle("#p", "display") == "none")
        try page.pageWorld.evaluate("document.styleSheets[0].insertRule('h2 { display: none }', 0)", sourceURL: "t")
        #expect(try Support.evalInEngine(page, recomputed) as? Double == 62)
    }

    @Test func navigationUndoesPatchesToTheNewConstructors() throws {
        let session = try WebSession()
        let first = try session.open(html: "<p>one</p>", url: "https://a.example/")
        try first.pageWorld.evaluate("""
            MutationObserver.prototype.observe = function () { throw new Error('patched'); };
            CSSStyleSheet.prototype.insertRule = null;
            HTMLMediaElement.prototype.play = () => 'patched';
            IntersectionObserver.prototype.observe = null;
            DOMParser.prototype.parseFromString = null;
            """, sourceURL: "test:patch")
        let second = try session.navigate(from: first, html: "<style id=s></style><video id=v></video>", url: "https://b.example/")
        try session.loop.runUntilIdle()
        let value = try second.pageWorld.evaluate("""
            new MutationObserver(() => {}).observe(document, { childList: true });
            [typeof CSSStyleSheet.prototype.insertRule, typeof document.getElementById('v').play(), typeof IntersectionObserver.prototype.observe,
             typeof new DOMParser().parseFromString].join()
            """, sourceURL: "test:check")
        let text = try value.toString()
        #expect(text == "function,object,function,function", "\(text)")
    }

    /// An element with no interface of its own (`<i>`, `<section>`, `<nav>`, a custom name) has
    /// the same `style` as a `<div>`: WebKit's declaration, written back to the attribute, seen
    /// through each world's wrappers (it once kept domino's, whose writes a content world could
    /// not reach: `el.style.display = 'none'` became an expando on the wrapper).
    @Test func everyHTMLElementHasTheSameStyleDeclaration() throws {
        let (session, page) = try Support.load("<i id=i></i><section id=s></section><x-y id=x></x-y><div id=d></div>", contentScripts: [Support.contentScript("")])
        defer { withExtendedLifetime(session) {} }
        do {
            let script = """
                ['i', 's', 'x', 'd'].map((id) => {
                  const el = document.getElementById(id);
                  el.style.display = 'none';
                  el.style.margin = '1px 2px';
                  const read = el.getAttribute('style');
                  const same = Object.getPrototypeOf(el.style) === Object.getPrototypeOf(document.getElementById('d').style) && el.style instanceof CSSStyleDeclaration;
                  el.removeAttribute('style');
                  return [read, same, el.style.length].join();
                }).join(' | ')
                """
            let expected = Array(repeating: "display: none; margin: 1px 2px;,true,0", count: 4).joined(separator: " | ")
            #expect(try Support.eval(page.pageWorld, script) as? String == expected)
            #expect(try Support.eval(try page.contentWorld(for: "test"), script) as? String == expected)
        }
    }

    /// A <style>'s media attribute changes the queries of the sheet it has, which stays the same
    /// object with the same MediaList (WebKit's HTMLStyleElement::attributeChanged), and the
    /// cascade follows them.
    @Test func aStyleElementsMediaChangeKeepsItsSheet() throws {
        let (session, page) = try Support.load("<style id=s media=print>#p { display: none }</style><p id=p>x</p>")
        defer { withExtendedLifetime(session) {} }
        #expect(try page.computedStyle("#p", "display") == "block")
        _ = try Support.eval(page.pageWorld, "window.kept = [document.getElementById('s').sheet, document.getElementById('s').sheet.media]; document.getElementById('s').setAttribute('media', 'screen')")
        #expect(try page.computedStyle("#p", "display") == "none")
        #expect(try Support.eval(page.pageWorld, "const s = document.getElementById('s'); [kept[0] === s.sheet, kept[1] === s.sheet.media, kept[1].mediaText].join()") as? String == "true,true,screen")
        _ = try Support.eval(page.pageWorld, "document.getElementById('s').removeAttribute('media')")
        #expect(try Support.eval(page.pageWorld, "[kept[0] === document.getElementById('s').sheet, kept[1].length, kept[1].mediaText].join()") as? String == "true,0,")
        #expect(try page.computedStyle("#p", "display") == "none")
    }

    /// document.styleSheets is one live list per document ([SameObject]): a list read before a
    /// sheet is added or removed sees the change, in every world.
    @Test func documentStyleSheetsIsOneLiveList() throws {
        let (session, page) = try Support.load("<style>p { color: red }</style><p>x</p>", contentScripts: [Support.contentScript("")])
        defer { withExtendedLifetime(session) {} }
        let script = """
            const list = document.styleSheets;
            const before = [list === document.styleSheets, list.length, list instanceof StyleSheetList];
            const style = document.createElement('style'); style.textContent = 'a { color: blue }'; document.head.appendChild(style);
            const added = [list.length, list[1] === style.sheet, list.item(1) === style.sheet, [...list].length, 1 in list, 2 in list];
            style.remove();
            [...before, ...added, list.length, list[1] === undefined, list.item(1)].join()
            """
        let expected = "true,1,true,2,true,true,2,true,false,1,true,"
        #expect(try Support.eval(page.pageWorld, script) as? String == expected)
        #expect(try Support.eval(try page.contentWorld(for: "test"), script) as? String == expected)
    }
}
