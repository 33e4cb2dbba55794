import JSKit
import TestSupport
import Testing
import WebRuntime

@Suite struct PageTests {
    @Test func fixturePageParsesIntoADocument() throws {
        let (_, page) = try Support.load(try Support.fixture("pages/demo.html"), url: "https://news.example/today")
        let world = page.pageWorld
        #expect(try Support.eval(world, "document.title") as? String == "ADV demo page")
        #expect(try Support.eval(world, "document.querySelectorAll('.ad-slot').length") as? Double == 2)
        #expect(try Support.eval(world, "document.getElementById('sidebar-ad').textContent") as? String == "Buy now!")
        #expect(try Support.eval(world, "location.href") as? String == "https://news.example/today")
        #expect(try Support.eval(world, "location.hostname") as? String == "news.example")
        #expect(try Support.eval(world, "document.URL") as? String == "https://news.example/today")
        #expect(page.readyState == "complete")
    }

    @Test func inlineScriptsRunInDocumentOrderSeeingOnlyWhatIsParsed() throws {
        let (_, page) = try Support.load("""
            <!DOCTYPE html><html><head>
            <script>console.log("1 body:" + (document.body === null ? "none" : "yes"));</script>
            </head><body>
            <div id="a"></div>
            <script>console.log("2 a:" + !!document.getElementById("a") + " b:" + !!document.getElementById("b"));</script>
            <div id="b"></div>
            <SCRIPT type="text/javascript">console.log("3 b:" + !!document.getElementById("b"));</SCRIPT>
            <script type="application/json">{"not": "run"}</script>
            <script type="module">console.log("5 module, once parsed");</script>
            <script>console.log("4 scripts:" + document.scripts.length);</script>
            </body></html>
            """)
        #expect(Support.logs(page) == ["1 body:none", "2 a:true b:false", "3 b:true", "4 scripts:6", "5 module, once parsed"])
        #expect(page.errors.isEmpty)
    }

    /// DOM 4.2.6: a document and a fragment (a `<template>`'s content) have ParentNode's
    /// firstElementChild, lastElementChild and childElementCount, as in WebKit; text and
    /// comments are skipped.
    @Test func documentsAndFragmentsHaveParentNodesElementAccessors() throws {
        let (_, page) = try Support.load("<!DOCTYPE html><html><body></body></html>")
        let world = page.pageWorld
        let probe = """
            (() => {
              const t = document.createElement('template');
              t.innerHTML = ' text <!-- c --><div id="a"></div> <span id="b"></span> tail ';
              const f = t.content;
              const empty = document.createDocumentFragment();
              return [f.firstElementChild.id, f.lastElementChild.id, f.childElementCount, empty.firstElementChild, empty.childElementCount,
                document.firstElementChild.localName, document.lastElementChild.localName, document.childElementCount].join(',');
            })()
            """
        #expect(try Support.eval(world, probe) as? String == "a,b,2,,0,html,html,1")
    }

    /// DOM 4.2.6: querySelectorAll returns a static NodeList, iterable and with forEach, from a
    /// document, an element and a fragment alike, for a lone tag name as for any selector
    /// (domino answered a lone tag name with a live list that had neither).
    @Test func querySelectorAllReturnsAStaticIterableNodeList() throws {
        let session = try WebSession()
        let page = try session.open(html: "<div id='d'><p>a</p><p>b</p></div><template><p>c</p></template>", url: "https://site.example/")
        for context in ["document", "document.getElementById('d')", "document.querySelector('template').content"] {
            for selector in ["p", "div > p, template p", "#d p"] {
                let probe = """
                    (() => { const list = \(context).querySelectorAll("\(selector)"); const before = list.length;
                      const seen = []; for (const node of list) seen.push(node.textContent); list.forEach((node) => seen.push(node.localName));
                      document.getElementById('d').append(document.createElement('p'));
                      const still = list.length === before; document.getElementById('d').lastChild.remove();
                      return [list instanceof NodeList, Object.prototype.toString.call(list), still, seen.join()].join('|') })()
                    """
                // The template's content is a fragment of its own: only its <p> matches there.
                let seen = context.hasSuffix("content") ? (selector == "p" ? "c,p" : "") : "a,b,p,p"
                let expected = "true|[object NodeList]|true|" + seen
                let got = try Support.eval(page.pageWorld, probe) as? String
                #expect(got == expected, "\(context).querySelectorAll('\(selector)'): \(got ?? "nil")")
            }
        }
        #expect(try Support.eval(page.pageWorld, "document.querySelector('nothing') === null && Object.getOwnPropertyNames(document).indexOf('querySelector') < 0") as? Bool == true)
    }

    @Test func readyStateAndLifecycleEventsFollowHTML() throws {
        let session = try WebSession()
        let page = try session.open(html: """
            <script>
            const seen = [];
            const log = (what) => seen.push(what + ":" + document.readyState);
            log("script");
            document.addEventListener("readystatechange", () => log("readystatechange"));
            document.addEventListener("DOMContentLoaded", () => log("DOMContentLoaded"));
            window.addEventListener("DOMContentLoaded", () => log("window DOMContentLoaded"));
            window.addEventListener("load", () => log("load"));
            window.onload = () => log("onload");
            </script><p>body</p>
            """, url: "https://site.example/", contentScripts: [
                Support.contentScript("console.log('start:' + document.readyState + ':' + document.documentElement)", runAt: .documentStart),
                Support.contentScript("console.log('end:' + document.readyState + ':' + document.querySelectorAll('p').length)", runAt: .documentEnd),
                Support.contentScript("console.log('idle:' + document.readyState)", runAt: .documentIdle),
            ])
        // Parsing ends with DOMContentLoaded; load follows as a task.
        #expect(page.readyState == "interactive")
        try session.loop.runUntilIdle()
        let seen = (try Support.eval(page.pageWorld, "seen") as? [Any?])?.compactMap { $0 as? String }
        #expect(seen == [
            "script:loading", "readystatechange:interactive", "DOMContentLoaded:interactive",
            "window DOMContentLoaded:interactive", "readystatechange:complete", "load:complete", "onload:complete",
        ])
        #expect(Support.logs(page) == ["start:loading:null", "end:interactive:1", "idle:complete"])
    }

    @Test func consoleIsCapturedAndFormatted() throws {
        let (_, page) = try Support.load("""
            <div id="x" class="ad big"></div>
            <script>
            console.log("plain", 1, true, null, undefined);
            console.warn("%s has %d items (%o)", "cart", 3.7, { a: [1, "b"] });
            console.error(new TypeError("bad"));
            console.info(document.getElementById("x"), [1, [2, [3, [4]]]]);
            console.assert(1 === 2, "math", "broke");
            console.assert(true, "not shown");
            </script>
            """)
        #expect(page.console.map { "\($0.level) \($0.text)" } == [
            "log plain 1 true null undefined",
            "warn cart has 3 items ({a: [1, \"b\"]})",
            "error TypeError: bad",
            "info <div id=\"x\" class=\"ad big\"> [1, [2, [3, […]]]]",
            "error Assertion failed: math broke",
        ])
        #expect(page.console.allSatisfy { $0.world == "page" && $0.time == .zero })
    }

    @Test func scriptErrorsAreReportedWithPositionAndTheParseGoesOn() throws {
        let (_, page) = try Support.load("""
            <p>one</p>
            <script>
              function broken() { return undefinedThing + 1; }
              broken();
            </script>
            <script>console.log("next script still runs");</script>
            <script>let = ;</script>
            """, url: "https://site.example/page.html")
        #expect(Support.logs(page) == ["next script still runs"])
        #expect(page.errors.count == 2)
        let first = page.errors[0].report.error
        #expect(first.name == "ReferenceError")
        #expect(first.location == "https://site.example/page.html:3:44")
        #expect(first.stack?.contains("broken@https://site.example/page.html:3:44") == true)
        #expect(page.errors[0].report.during == "inline script 1 of https://site.example/page.html")
        #expect(page.errors[1].report.error.name == "SyntaxError")
        #expect(page.errors[1].report.error.line == 7)
    }

    @Test func externalScriptsLoadThroughTheResourceLoader() throws {
        let session = try WebSession()
        session.resourceLoader = { url in
            url == "https://site.example/js/app.js" ? "console.log('app loaded, title=' + document.title)" : nil
        }
        let page = try session.open(html: """
            <title>T</title>
            <script src="js/app.js"></script>
            <script src="https://cdn.example/missing.js" onerror="console.log('error event')"></script>
            <script>
              document.scripts[1].addEventListener('error', () => {});
              console.log('after');
            </script>
            """, url: "https://site.example/index.html")
        try session.loop.runUntilIdle()
        #expect(Support.logs(page) == ["app loaded, title=T", "error event", "after"])
    }

    @Test func listenerExceptionsAreReportedAndDispatchGoesOn() throws {
        let (_, page) = try Support.load("""
            <button id="b"></button>
            <script>
            const b = document.getElementById("b");
            const order = [];
            b.addEventListener("click", () => { order.push(1); throw new Error("first listener"); });
            b.onclick = () => { order.push("handler"); return false; };
            b.addEventListener("click", { handleEvent() { order.push(2); } });
            b.addEventListener("click", () => order.push("once"), { once: true });
            b.addEventListener("click", () => order.push("passive is not capture"), { passive: true });
            const removeMe = () => order.push("removed during dispatch");
            b.addEventListener("click", () => b.removeEventListener("click", removeMe));
            b.addEventListener("click", removeMe);
            const ev1 = new Event("click", { cancelable: true });
            b.dispatchEvent(ev1);
            b.dispatchEvent(new Event("click"));
            console.log(order.join(","), ev1.defaultPrevented);
            </script>
            """, url: "https://site.example/e.html")
        #expect(Support.logs(page) == ["1,handler,2,once,passive is not capture,1,handler,2,passive is not capture true"])
        #expect(page.errors.map { $0.report.error.message } == ["first listener", "first listener"])
        #expect(page.errors.first?.report.error.location == "https://site.example/e.html:5:67")
    }

    @Test func navigatorLooksLikeSafari() throws {
        let (_, page) = try Support.load("<p>ua</p>")
        let ua = try Support.eval(page.pageWorld, "navigator.userAgent") as? String ?? ""
        #expect(ua.contains("Version/") && ua.contains("Safari/605.1.15") && !ua.contains("Chrome"))
        #expect(try Support.eval(page.pageWorld, "navigator.vendor") as? String == "Apple Computer, Inc.")
        #expect(try Support.eval(page.pageWorld, "[navigator instanceof Navigator, String(navigator), 'userAgent' in Navigator.prototype, Object.keys(navigator).length].join()") as? String
            == "true,[object Navigator],true,0")
    }

    /// The host reads the title again only after the document changed; every kind of change
    /// shows.
    @Test func titleFollowsEveryChangeOfTheDocument() throws {
        let (_, page) = try Support.load("<title>First</title><p>x</p>")
        #expect(page.title == "First")
        #expect(page.title == "First")
        _ = try Support.eval(page.pageWorld, "document.title = 'Second'")
        #expect(page.title == "Second")
        _ = try Support.eval(page.pageWorld, "document.querySelector('title').firstChild.data = '  Third   page '")
        #expect(page.title == "Third page")
        _ = try Support.eval(page.pageWorld, "document.querySelector('title').remove()")
        #expect(page.title == "")
    }

    /// A page that redefines the `title` getter changes what its scripts read, not the title
    /// the browser shows (tabs.Tab.title).
    @Test func theShownTitleIgnoresARedefinedGetter() throws {
        let (_, page) = try Support.load("<title>Real</title><script>Object.defineProperty(Document.prototype, 'title', { get: () => 'Spoofed', configurable: true });</script>")
        #expect(try Support.eval(page.pageWorld, "document.title") as? String == "Spoofed")
        #expect(page.title == "Real")
    }

    /// HTML 8.9.1 with WebIDL attributes: a page may shadow or redefine navigator's attributes, as
    /// scripts that probe the browser do; the next page has a pristine navigator.
    @Test func pagesMayRedefineNavigatorForThemselvesOnly() throws {
        let session = try WebSession()
        let first = try session.open(html: """
            <script>
            Object.defineProperty(navigator, "userAgent", { get: () => "Spoofed/1.0" });
            Object.defineProperty(Navigator.prototype, "webdriver", { get: () => "patched", configurable: true });
            </script>
            """, url: "https://one.example/")
        #expect(first.errors.isEmpty, "\(first.errors)")
        #expect(try Support.eval(first.pageWorld, "navigator.userAgent + ' ' + navigator.webdriver") as? String == "Spoofed/1.0 patched")
        let second = try session.navigate(from: first, html: "<p>next</p>", url: "https://two.example/")
        #expect(try Support.eval(second.pageWorld, "navigator.userAgent.includes('Safari') + ' ' + navigator.webdriver") as? String == "true false")
        #expect(try Support.eval(second.pageWorld, "try { Navigator.prototype.userAgent; 'read' } catch (e) { e.constructor.name }") as? String == "TypeError")
    }

    @Test func domConstructorsAndEventsAreAvailable() throws {
        let (_, page) = try Support.load("<div id='t'></div>")
        let result = try Support.eval(page.pageWorld, """
            const t = document.getElementById("t");
            const got = [];
            t.addEventListener("ping", (e) => got.push(e.type + ":" + e.detail + ":" + e.isTrusted));
            t.dispatchEvent(new CustomEvent("ping", { detail: 7 }));
            [t instanceof HTMLDivElement, t instanceof Element, t instanceof Node, typeof Event,
             document instanceof Document, got.join(), self === window, window.window === window,
             String(window), typeof globalThis.setTimeout]
            """) as? [Any?]
        #expect(result?.count == 10)
        #expect(result?[0] as? Bool == true)
        #expect(result?[1] as? Bool == true)
        #expect(result?[2] as? Bool == true)
        #expect(result?[3] as? String == "function")
        #expect(result?[4] as? Bool == true)
        #expect(result?[5] as? String == "ping:7:false")
        #expect(result?[6] as? Bool == true)
        #expect(result?[7] as? Bool == true)
        #expect(result?[8] as? String == "[object Window]")
        #expect(result?[9] as? String == "function")
    }

    /// WebIDL 3.7.6/3.7.7: operations and attributes can be wrapped and redefined by page script,
    /// as in Safari; constants cannot.
    @Test func domInterfacesHaveWebIDLPropertyAttributes() throws {
        let (_, page) = try Support.load("""
            <p id='p'>x</p><script>
            Element.prototype.remove = function () { this.setAttribute('data-kept', 'yes'); };
            Object.defineProperty(Document.prototype, 'title', { get: () => 'spoofed', configurable: true });
            </script>
            """)
        let flags = "(d) => [d.writable, d.enumerable, d.configurable].join('/')"
        #expect(try Support.eval(page.pageWorld, "(\(flags))(Object.getOwnPropertyDescriptor(Node.prototype, 'appendChild'))") as? String == "true/true/true")
        #expect(try Support.eval(page.pageWorld, "(\(flags))(Object.getOwnPropertyDescriptor(Node.prototype, 'ELEMENT_NODE'))") as? String == "false/true/false")
        #expect(try Support.eval(page.pageWorld, "(\(flags))(Object.getOwnPropertyDescriptor(Node, 'ELEMENT_NODE'))") as? String == "false/true/false")
        #expect(try Support.eval(page.pageWorld, "[document.body.ELEMENT_NODE, document.DOCUMENT_POSITION_FOLLOWING].join()") as? String == "1,4")
        #expect(try Support.eval(page.pageWorld, "(\(flags))(Object.getOwnPropertyDescriptor(Element.prototype, 'id'))") as? String == "/true/true")
        #expect(try Support.eval(page.pageWorld, "document.getElementById('p').remove(); document.getElementById('p').dataset.kept + ' ' + document.title") as? String == "yes spoofed")
        #expect(page.errors.isEmpty, "\(page.errors)")
    }

    /// DOM 4.2.6: an element's query answers from its descendants only, "#id" included.
    @Test func elementQueriesFindDescendantsOnly() throws {
        let (_, page) = try Support.load("<div id='outer'><p id='inner'>x</p></div><aside id='other'></aside>")
        let answers = try Support.eval(page.pageWorld, """
            const outer = document.getElementById('outer'), inner = document.getElementById('inner');
            [inner.querySelector('#other'), inner.querySelectorAll('#other').length, inner.querySelector('#inner'),
             outer.querySelector('#inner') === inner, outer.querySelectorAll('#inner').length,
             document.querySelector('#other') !== null, outer.querySelectorAll('#other') instanceof NodeList].join(',')
            """) as? String
        #expect(answers == ",0,,true,1,true,true")
    }
}

@Suite struct TraceTests {
    @Test func consoleAndErrorsReachTheTraceInOrder() throws {
        let session = try WebSession()
        _ = try session.open(html: """
            <script>
            console.log("first", {b: 1, a: 2});
            setTimeout(() => { console.warn("later"); missing(); }, 250);
            </script>
            """, url: "https://trace.example/t.html")
        try session.loop.runUntilIdle()
        let lines = session.trace.dump().split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0] == "       0ms page1/page console log: first {b: 1, a: 2}")
        #expect(lines[1] == "     250ms page1/page console warn: later")
        #expect(lines[2].hasPrefix("     250ms page1/page error ReferenceError: Can't find variable: missing (at https://trace.example/t.html:3:50) during timeout timer 1 (250 ms) set at https://trace.example/t.html:3:11"))
        #expect(session.trace.dump(channels: [.console], from: .milliseconds(100)) == "     250ms page1/page console warn: later\n")
    }

    @Test func unhandledRejectionsAreReportedInEveryWorld() throws {
        let session = try WebSession()
        let script = ContentScript(extensionID: "ext", source: "Promise.reject(Symbol('from content'));",
                                   url: "safari-web-extension://ext/content.js", runAt: .documentEnd)
        _ = try session.open(html: """
            <script>
            Promise.reject(new TypeError("nobody listens"));
            Promise.reject({ code: 7 });
            Promise.reject(new Error("handled later")).catch(() => {});
            </script>
            """, url: "https://trace.example/r.html", contentScripts: [script])
        try session.loop.runUntilIdle()
        let errors = session.trace.dump(channels: [.error])
        #expect(errors.contains("page1/page error Unhandled Promise Rejection: TypeError: nobody listens (at https://trace.example/r.html:2:"), "\(errors)")
        #expect(errors.contains(#"page1/page error Unhandled Promise Rejection: {"code":7} during a promise job"#), "\(errors)")
        #expect(errors.contains("error Unhandled Promise Rejection: Symbol(from content) during a promise job"), "\(errors)")
        #expect(!errors.contains("handled later"))
    }

    @Test func multiLineTextStaysOneEventALine() throws {
        let session = try WebSession()
        _ = try session.open(html: """
            <script>
            console.log("two\\nlines\\r\\nand a return");
            throw new Error("first line\\nsecond line");
            </script>
            """, url: "https://trace.example/m.html")
        let lines = session.trace.dump().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 3, "\(lines)")
        #expect(lines[0] == #"       0ms page1/page console log: two\nlines\r\nand a return"#)
        #expect(lines[1].hasPrefix(#"       0ms page1/page error Error: first line\nsecond line (at https://trace.example/m.html:3:"#), "\(lines[1])")
        #expect(lines[2] == "")
    }
}

@Suite struct URLTests {
    // Expected values per the WHATWG URL Standard (and what Safari prints for them).
    @Test(arguments: [
        ("new URL('HTTPS://Ex.Example:443/a/./b/../c?x=1#f').href", "https://ex.example/a/c?x=1#f"),
        ("new URL('http://a.example:8080/p').host", "a.example:8080"),
        ("new URL('https://a.example').pathname", "/"),
        ("new URL('../up?q', 'https://a.example/x/y/z').href", "https://a.example/x/up?q"),
        ("new URL('//cdn.example/lib.js', 'https://a.example/').href", "https://cdn.example/lib.js"),
        ("new URL('https://u:p@a.example/').origin", "https://a.example"),
        ("new URL('safari-web-extension://ID/popup.html').origin", "null"),
        ("new URL('https://a.example/?a=1&b=x+y&a=2').searchParams.getAll('a').join()", "1,2"),
        ("new URL('https://a.example/?b=x+y').searchParams.get('b')", "x y"),
        ("(() => { const u = new URL('https://a.example/p'); u.searchParams.set('q', 'a b&c'); return u.href })()", "https://a.example/p?q=a+b%26c"),
        ("new URLSearchParams({ z: '1', a: '2' }).toString()", "z=1&a=2"),
        ("(() => { try { new URL('not a url'); } catch (e) { return e.name; } })()", "TypeError"),
        ("URL.canParse('x', 'https://a.example/')", "true"),
        ("JSON.stringify({ u: new URL('https://a.example') })", #"{"u":"https://a.example/"}"#),
    ])
    func urlBehavesAsSpecified(expression: String, expected: String) throws {
        let (_, page) = try Support.load("<p>u</p>")
        let value = try page.pageWorld.evaluate("String(\(expression))", sourceURL: "test")
        #expect(value.stringValue == expected)
    }

    @Test func baseURIIsTheDocumentURLOrItsBaseElement() throws {
        let (_, plain) = try Support.load("<p id='p'>x</p>", url: "https://site.example/a/page.html")
        #expect(try Support.eval(plain.pageWorld, "document.baseURI + ' ' + document.getElementById('p').baseURI") as? String
            == "https://site.example/a/page.html https://site.example/a/page.html")
        let (_, based) = try Support.load("<base href='/assets/'><p id='p'>x</p>", url: "https://site.example/a/page.html")
        #expect(try Support.eval(based.pageWorld, "document.getElementById('p').firstChild.baseURI") as? String == "https://site.example/assets/")
    }

    /// CSSOM §2.1 "serialize an identifier", case by case.
    @Test func cssEscapeSerializesIdentifiers() throws {
        let (_, page) = try Support.load("<p>x</p>")
        let cases: [(String, String)] = [
            ("'0a'", #"\30 a"#), ("'-0'", #"-\30 "#), ("'-'", #"\-"#), ("'--x'", "--x"), ("'a b'", #"a\ b"#),
            ("'#x.y'", ##"\#x\.y"##), ("'\\0'", "\u{FFFD}"), ("'\\x7f'", #"\7f "#), ("'\\x01'", #"\1 "#), ("'é_1'", "é_1"), ("123", #"\31 23"#),
        ]
        for (argument, expected) in cases {
            let result = try Support.eval(page.pageWorld, "CSS.escape(\(argument))") as? String
            #expect(result == expected, "CSS.escape(\(argument))")
        }
        #expect(try Support.eval(page.pageWorld, "String(CSS) + ' ' + typeof CSS.supports") as? String == "[object CSS] function")
        #expect(try Support.eval(page.pageWorld, "try { CSS.escape(); 'no error' } catch (e) { e.name }") as? String == "TypeError")
    }

    /// background-image's computed value has absolute url()s (CSS Values 4 §4.5): against the
    /// document's base URL for <style> and style attributes; the `background` shorthand sets it.
    @Test func backgroundImageComputesToAbsoluteURLs() throws {
        let html = """
            <style>#a { background-image: url(img/a.png) } #b { background: #fff url('https://cdn.example/b.png') no-repeat } #c { background: red }</style>
            <div id=a></div><div id=b></div><div id=c></div><div id=d style="background-image: url(/d.png), linear-gradient(red, blue)"></div><div id=e></div>
            """
        let (_, page) = try Support.load(html, url: "https://site.example/dir/page.html")
        let values = try Support.eval(page.pageWorld, "['a', 'b', 'c', 'd', 'e'].map((id) => getComputedStyle(document.getElementById(id)).backgroundImage)") as? [String]
        #expect(values == [
            #"url("https://site.example/dir/img/a.png")"#, #"url("https://cdn.example/b.png")"#, "none",
            #"url("https://site.example/d.png"), linear-gradient(red, blue)"#, "none",
        ])
    }

    /// Line numbers of inline scripts count lines of the source as given, whatever the
    /// characters before them (non-ASCII text, CRLF line ends) and however long the page.
    @Test func inlineScriptLinesSurviveNonASCIIAndCRLF() throws {
        let html = "<p>Café — naïve 🎉</p>\r\n<p>second line ü</p>\r\n<script>\r\n\r\nthrow new Error('here')</script>\n"
            + String(repeating: "<p>ünïcödé filler</p>\n", count: 400) + "<script>throw new Error('late')</script>"
        let (_, page) = try Support.load(html)
        #expect(page.errors.map { $0.report.error.message } == ["here", "late"])
        #expect(page.errors.map { $0.report.error.line } == [5, 406])
    }
}
