import JSKit
import TestSupport
import Testing
import WebRuntime

@Suite struct WorldTests {
    @Test func globalsAreIsolatedBetweenWorlds() throws {
        let (_, page) = try Support.load("""
            <script>let pageLet = "p"; var pageVar = "v"; window.pageProp = "w"; function pageFn() {}</script>
            """, contentScripts: [Support.contentScript("let contentLet = 'c'; var contentVar = 'cv'; window.contentProp = 1;")])
        let content = try page.contentWorld(for: "test")
        #expect(try Support.eval(content, "[typeof pageLet, typeof pageVar, typeof pageProp, typeof pageFn].join()") as? String == "undefined,undefined,undefined,undefined")
        #expect(try Support.eval(page.pageWorld, "[typeof contentLet, typeof contentVar, typeof contentProp].join()") as? String == "undefined,undefined,undefined")
        #expect(try Support.eval(content, "contentLet + contentVar") as? String == "ccv")
        #expect(try Support.eval(page.pageWorld, "pageLet + pageVar + pageProp") as? String == "pvw")
        // Each world has its own builtins: a page replacing Array.prototype.push does not reach
        // content scripts.
        try page.pageWorld.evaluate("Array.prototype.push = function () { throw new Error('hijacked'); }", sourceURL: "page-attack")
        #expect(try Support.eval(content, "const a = []; a.push(1); a.length") as? Double == 1)
        #expect(try Support.eval(content, "window === globalThis && self === window") as? Bool == true)
    }

    @Test func worldsShareTheSameDOM() throws {
        let (_, page) = try Support.load("<ul id='list'></ul>", contentScripts: [Support.contentScript("")])
        let content = try page.contentWorld(for: "test")
        try page.pageWorld.evaluate("document.getElementById('list').innerHTML = '<li>from page</li>'", sourceURL: "page")
        #expect(try Support.eval(content, "document.querySelector('#list li').textContent") as? String == "from page")
        try content.evaluate("document.querySelector('#list li').setAttribute('data-seen', 'content')", sourceURL: "content")
        #expect(try Support.eval(page.pageWorld, "document.querySelector('[data-seen]').tagName") as? String == "LI")
        #expect(try Support.eval(content, "document === window.document") as? Bool == true)
        // Each world has its own wrappers: an expando is the world's that set it.
        try page.pageWorld.evaluate("document.getElementById('list').expando = 42; document.fromPage = 1", sourceURL: "page")
        try content.evaluate("document.getElementById('list').contentExpando = 7", sourceURL: "content")
        #expect(try Support.eval(content, "[typeof document.getElementById('list').expando, typeof document.fromPage].join()") as? String == "undefined,undefined")
        #expect(try Support.eval(page.pageWorld, "[document.getElementById('list').expando, typeof document.getElementById('list').contentExpando].join()") as? String == "42,undefined")
    }

    @Test func contentWorldErrorsAreAttributedToTheirWorld() throws {
        let (_, page) = try Support.load("<p>x</p>", contentScripts: [Support.contentScript("setTimeout(() => { throw new Error('content timer'); }, 5); nope();")])
        #expect(page.errors.map(\.world) == ["content:test", "content:test"])
        #expect(page.errors[0].report.error.location == "safari-web-extension://test/content.js:1:65")
        #expect(page.errors[1].report.error.message == "content timer")
    }

    @Test func nothingOfAPageSurvivesItsNavigation() throws {
        let session = try WebSession()
        let first = try session.open(html: """
            <script>
            var leaked = "old page";
            // One property taken away and one added on the same object: its key count is unchanged.
            const base = Object.getPrototypeOf(EventTarget.prototype);
            delete base.toLocaleString;
            base.swapped = "old page";
            HTMLElement.prototype.hijack = () => "patched";
            Element.prototype.querySelector = () => null;
            delete Node.prototype.appendChild;
            Object.defineProperty(Document.prototype, "title", { get: () => "spoofed", configurable: true });
            EventTarget.prototype.extra = 1;
            Object.setPrototypeOf(HTMLDivElement.prototype, Object.prototype);
            setInterval(() => console.log("old interval"), 10);
            requestAnimationFrame(() => console.log("old frame"));
            </script>
            """, url: "https://one.example/", contentScripts: [Support.contentScript("var contentState = 1;")])
        #expect(try Support.eval(first.pageWorld, "document.body.hijack()") as? String == "patched")
        #expect(try Support.eval(first.pageWorld, "document.swapped") as? String == "old page")
        #expect(first.errors.isEmpty, "\(first.errors)")
        try session.loop.advance(by: .milliseconds(5))

        let second = try session.navigate(from: first, html: "<title>Real</title><div id='d'><span></span></div>", url: "https://two.example/",
                                          contentScripts: [Support.contentScript("")])
        #expect(first.isClosed)
        let world = second.pageWorld
        #expect(try Support.eval(world, "typeof leaked") as? String == "undefined")
        #expect(try Support.eval(world, "typeof document.body.hijack") as? String == "undefined")
        #expect(try Support.eval(world, "document.getElementById('d').querySelector('span') !== null") as? Bool == true)
        #expect(try Support.eval(world, "typeof Node.prototype.appendChild") as? String == "function")
        #expect(try Support.eval(world, "document.title") as? String == "Real")
        #expect(try Support.eval(world, "typeof EventTarget.prototype.extra") as? String == "undefined")
        #expect(try Support.eval(world, "typeof Object.getPrototypeOf(EventTarget.prototype).toLocaleString") as? String == "function")
        #expect(try Support.eval(world, "typeof document.swapped") as? String == "undefined")
        #expect(try Support.eval(world, "document.getElementById('d') instanceof HTMLElement") as? Bool == true)
        #expect(try Support.eval(try second.contentWorld(for: "test"), "typeof contentState") as? String == "undefined")
        try session.loop.runUntilIdle()
        #expect(first.console.isEmpty, "the old page's timers and frames must not run after navigation")
        #expect(session.loop.activeTimerCount(owner: first.id) == 0)
        #expect(session.pages.keys.sorted() == [second.id])
    }
    /// A page that freezes or patches its DOM prototypes (to keep extensions from hooking an API)
    /// changes its own world's only: the content world of the same page and the next page see
    /// the DOM as it was, and nothing is reported.
    @Test func aFrozenPrototypeStaysInThePagesWorld() throws {
        let session = try WebSession()
        let first = try session.open(html: """
            <script>
            Object.defineProperty(EventTarget.prototype, "addEventListener", { value: () => "patched", writable: false, configurable: false });
            Object.freeze(Element.prototype);
            HTMLElement.prototype.hijack = () => "patched";
            MutationObserver.prototype.observe = () => "patched";
            </script>
            """, url: "https://one.example/", contentScripts: [Support.contentScript("")])
        #expect(first.errors.isEmpty, "\(first.errors)")
        #expect(try Support.eval(first.pageWorld, "[document.addEventListener('x', () => {}), typeof document.body.hijack, Object.isFrozen(Element.prototype)].join()") as? String == "patched,function,true")
        let content = try first.contentWorld(for: "test")
        #expect(try Support.eval(content, """
            let heard = 0;
            document.addEventListener('x', () => heard++);
            document.dispatchEvent(new Event('x'));
            Element.prototype.mine = 1;
            [heard, typeof document.body.hijack, Object.isFrozen(Element.prototype), document.body.mine].join()
            """) as? String == "1,undefined,false,1")
        let second = try session.navigate(from: first, html: "<p id='p'></p>", url: "https://two.example/")
        #expect(try Support.eval(second.pageWorld, "typeof document.body.hijack") as? String == "undefined")
        #expect(try Support.eval(second.pageWorld, "Object.isFrozen(Element.prototype) || Object.isFrozen(EventTarget.prototype)") as? Bool == false)
        #expect(try Support.eval(second.pageWorld, "new MutationObserver(() => {}).observe(document.body, { childList: true })") == nil)
        #expect(session.trace.dump(channels: [.error]) == "")
    }

    /// Every path a page has to the engine realm's objects, with a patch through it and what the
    /// next page reads back: the navigation undoes each (issue 19, point 2).
    static let leakPaths: [(path: String, patch: String, reader: String, expected: String)] = [
        ("a NodeList's iterator (the engine's array iterator)",
         "Object.getPrototypeOf(document.querySelectorAll('p')[Symbol.iterator]()).next = () => ({ done: true })",
         "String(Array.from(document.querySelectorAll('p')).length)", "1"),
        ("a Map iterator, in code the engine's Function compiles",
         "document.constructor.constructor('Object.getPrototypeOf(new Map().entries()).next = () => ({ done: true })')()",
         "String(document.constructor.constructor('return [...new Map([[1, 2]])].length')())", "1"),
        ("an error the DOM throws",
         "try { document.querySelector('!!') } catch (error) { Object.getPrototypeOf(error).patched = true; error.constructor.prototype.name = 'Patched' }",
         "(() => { try { document.querySelector('!!') } catch (error) { return error.name + ' ' + error.patched } })()", "SyntaxError undefined"),
        ("Object.prototype, at the end of every DOM prototype chain",
         "let o = document; while (Object.getPrototypeOf(o)) o = Object.getPrototypeOf(o); o.leaked = 'patched'",
         "String(document.leaked)", "undefined"),
        ("Function.prototype, through a DOM method",
         "Object.getPrototypeOf(document.createElement).call = () => 'patched'",
         "String(document.createElement.call(document, 'p').localName)", "p"),
        ("a getter on the window's shared object",
         "let w = window; while (!Object.getOwnPropertyDescriptor(w, 'HTMLElement')) w = Object.getPrototypeOf(w); Object.defineProperty(w, 'HTMLElement', { get: () => 'patched', configurable: true })",
         "typeof HTMLElement", "function"),
        ("the virtual clock's Date",
         "Date.now = () => 0; Date.prototype.getTime = () => 0",
         "String(Date.now() > 0 && new Date().getTime() > 0)", "true"),
        ("the engine's Object.prototype.get, which putting a data property back must not read",
         "let o = document; while (Object.getPrototypeOf(o)) o = Object.getPrototypeOf(o); o.get = function () { return 'patched' }; Element.prototype.remove = null",
         "typeof Element.prototype.remove + ' ' + typeof ({}).get", "function undefined"),
        ("a DOM method, frozen with the engine's functions",
         "try { Element.prototype.remove.marked = true } catch (error) {}; Element.prototype.remove = function () { return 'patched' }",
         "String(document.createElement('p').remove === undefined) + ' ' + String(Element.prototype.remove.marked)", "false undefined"),
    ]

    @Test(arguments: leakPaths.indices)
    func aNavigationUndoesAPatchThroughEveryPathToTheEngine(_ index: Int) throws {
        let (path, patch, reader, expected) = Self.leakPaths[index]
        let session = try WebSession()
        let first = try session.open(html: "<p></p><script>\(patch)</script>", url: "https://one.example/")
        #expect(first.errors.isEmpty, "\(path): \(first.errors)")
        let second = try session.navigate(from: first, html: "<p></p>", url: "https://two.example/")
        let read = try Support.eval(second.pageWorld, reader) as? String
        #expect(read == expected, "\(path): \(read ?? "nil")")
        #expect(session.trace.dump(channels: [.error]).isEmpty, "\(path)")
    }

    /// Navigations leave no realm behind in a session's group: after a full collection, only
    /// the engine realm and the open page's worlds are alive.
    @Test func navigationsLeaveNoRealmBehind() throws {
        let session = try WebSession()
        var page = try session.open(html: "<p>0</p>", url: "https://one.example/", contentScripts: [Support.contentScript("document.title = 'x'")])
        for index in 1...30 {
            page = try session.navigate(from: page, html: "<p>\(index)</p><script>Promise.reject(new Error('unhandled'))</script>", url: "https://one.example/\(index)",
                                        contentScripts: [Support.contentScript("document.title = 'x'")])
        }
        try session.loop.runUntilIdle()
        session.realm.context.garbageCollect(synchronous: true)
        // The engine realm, the page world and the content world.
        #expect(session.realm.context.memoryStatistics()["globalObjectCount"] == 3)
    }

    /// Issue 18, point 7: the page cannot break the harness. A page that replaces what the
    /// engine's DOM and the harness call (Element.prototype.remove, appendChild, the array
    /// iterator, push, call, apply, JSON.stringify, Object.prototype.toString, Promise.prototype.then)
    /// and freezes `document` changes its own world only: the harness's operations, a content
    /// world and the engine's own DOM calls behave as on a calm page, and the window refuses the freeze.
    @Test func aPageCannotBreakTheHarnessOrAnotherWorld() throws {
        let (session, page) = try Support.load("""
            <ul id=list><li id=a>a</li><li id=b>b</li></ul><button id=go onclick="window.clicked = (window.clicked || 0) + 1">go</button>
            <script>
            Element.prototype.remove = function () {};
            Node.prototype.appendChild = function (node) { return node; };
            Node.prototype.removeChild = function (node) { return node; };
            Array.prototype[Symbol.iterator] = function* () {};
            Array.prototype.push = function () { return 0; };
            Function.prototype.call = function () {};
            Function.prototype.apply = function () {};
            JSON.stringify = function () { return "hijacked"; };
            Object.prototype.toString = function () { return "[object Hijacked]"; };
            Promise.prototype.then = function () { return this; };
            Object.preventExtensions(document);
            Object.seal(document);
            Object.freeze(document);
            let refused = "";
            const refusals = ["freeze", "seal", "preventExtensions"];
            for (let i = 0; i < 3; i++) {
              try { Object[refusals[i]](window); refused += "none,"; } catch (error) { refused += (error.constructor === TypeError ? "TypeError" : "other") + ","; }
            }
            window.refused = refused;
            </script>
            """, contentScripts: [Support.contentScript("")])
        try withExtendedLifetime(session) {
            #expect(page.errors.isEmpty, "\(page.errors)")
            #expect(try Support.eval(page.pageWorld, "window.refused") as? String == "TypeError,TypeError,TypeError,")
            // The harness's own operations: a click, a computed style, the engine's DOM.
            #expect(try page.click("#go"))
            #expect(try Support.eval(page.pageWorld, "window.clicked") as? Double == 1)
            #expect(try page.computedStyle("#a", "display") == "list-item")
            #expect(try Support.evalInEngine(page, "const list = document.getElementById('list'); list.removeChild(document.getElementById('a')); document.getElementById('b').remove(); list.childNodes.length") as? Double == 0)
            // A content world of the same page: its own builtins and the real DOM.
            let content = try page.contentWorld(for: "test")
            #expect(try Support.eval(content, """
                const item = document.createElement('li');
                document.getElementById('list').appendChild(item);
                const seen = [];
                for (const node of document.querySelectorAll('li')) seen.push(node.localName);
                item.remove();
                [seen.length, document.querySelectorAll('li').length, JSON.stringify({ a: 1 }), Object.prototype.toString.call([]),
                 Math.max.apply(null, [1, 2]), typeof Promise.resolve(1).then(() => 1).then].join()
                """) as? String == #"1,0,{"a":1},[object Array],2,function"#)
            // And the page's world as it made it.
            #expect(try Support.eval(page.pageWorld, "JSON.stringify({})") as? String == "hijacked")
        }
    }

    /// Bytes the engine hands a world are the view's own: a typed array that starts inside its
    /// buffer arrives as its bytes, not the buffer's first ones.
    @Test func typedArraysCrossWithTheirOffset() throws {
        let (session, page) = try Support.load("<p>x</p>")
        let promise = try page.pageWorld.evaluate("""
            new Promise((resolve) => {
              const channel = new MessageChannel();
              channel.port2.onmessage = (event) => resolve([event.data instanceof Uint8Array, event.data.byteOffset, Array.from(event.data)].join());
              channel.port1.postMessage(new Uint8Array([1, 2, 3, 4, 5]).subarray(2, 4));
            })
            """, sourceURL: "test")
        #expect(try session.settle(promise).toString() == "true,0,3,4")
    }

    /// A [SameObject] attribute is the same object on every read in a world, and stays live: what
    /// another world writes through its own is seen; a string attribute of the same name (a
    /// <style>'s media) is read again each time.
    @Test func sameObjectAttributesStayLiveAndStringsAreReadAgain() throws {
        let (session, page) = try Support.load("<style id=s media=screen>p { color: red }</style><p id=p class=a>x</p>", contentScripts: [Support.contentScript("")])
        defer { withExtendedLifetime(session) {} }
        let content = try page.contentWorld(for: "test")
        #expect(try Support.eval(content, """
            const p = document.getElementById('p'), sheet = document.getElementById('s').sheet;
            window.kept = [p.style, p.classList, sheet.cssRules, sheet.cssRules[0].style, sheet.media, p.childNodes];
            [p.style === p.style, p.classList === p.classList, sheet.cssRules === sheet.cssRules, sheet.cssRules[0].style === sheet.cssRules[0].style].join()
            """) as? String == "true,true,true,true")
        _ = try Support.eval(page.pageWorld, """
            const p = document.getElementById('p'), sheet = document.getElementById('s').sheet;
            p.style.color = 'blue'; p.classList.add('b'); sheet.insertRule('a { color: green }', 1); sheet.cssRules[0].style.color = 'black';
            p.appendChild(document.createElement('i')); sheet.media.appendMedium('tv'); 0
            """)
        let seen = try Support.eval(content, """
            const [style, classes, rules, ruleStyle, media, children] = window.kept;
            const s = document.getElementById('s');
            [style.color, classes.length, rules.length, ruleStyle.color, media.mediaText, children.length, s.media].join()
            """) as? String
        #expect(seen == "blue,2,2,black,screen, tv,2,screen")
        _ = try Support.eval(page.pageWorld, "document.getElementById('s').setAttribute('media', 'print')")
        #expect(try Support.eval(content, "document.getElementById('s').media") as? String == "print")
    }

    /// An element with no interface of its own (<section>, a custom element) clicks, focuses and
    /// blurs as any other: the HTMLElement.prototype members domino fixes (a click event of its
    /// own making, no-op focus and blur) are the harness's in every world, and as WebKit's they
    /// are ordinary, replaceable operations.
    @Test func plainHTMLElementsClickAndFocusAsOthersDo() throws {
        let (session, page) = try Support.load("<section id=s tabindex=0>s</section><x-card id=x tabindex=0>x</x-card><section id=n>n</section>", contentScripts: [Support.contentScript("")])
        defer { withExtendedLifetime(session) {} }
        let script = """
            const s = document.getElementById('s'), x = document.getElementById('x'), n = document.getElementById('n');
            const seen = [];
            s.addEventListener('click', (e) => seen.push([e.type, e.isTrusted, e.detail, e.bubbles, e.composed, e instanceof MouseEvent].join(':')));
            s.click();
            x.focus(); const focusedCustom = document.activeElement === x;
            s.focus(); const focused = document.activeElement === s;
            s.blur(); const blurred = document.activeElement === document.body;
            n.focus(); const unfocusable = document.activeElement === document.body;
            const d = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'click');
            [seen.join(), focusedCustom, focused, blurred, unfocusable, d.writable && d.configurable && d.enumerable].join()
            """
        let expected = "click:false:1:true:true:true,true,true,true,true,true"
        #expect(try Support.eval(try page.contentWorld(for: "test"), script) as? String == expected)
        #expect(try Support.eval(page.pageWorld, script) as? String == expected)
    }
}

/// The page world is made when script first needs it, as WebKit makes a frame's window proxy for
/// the normal world.
@Suite struct LazyPageWorldTests {
    @Test func aPageWithoutScriptHasNoPageWorldUntilScriptNeedsOne() throws {
        let (session, page) = try Support.load("<p id='a'>a</p>", contentScripts: [Support.contentScript("document.getElementById('a').dataset.seen = 'content'")])
        defer { withExtendedLifetime(session) {} }
        #expect(!page.hasPageWorld)
        #expect(page.worlds.map(\.name) == ["content:test"])
        // A content script inserts a script element: it runs in the page world, made for it.
        let content = try page.contentWorld(for: "test")
        try content.evaluate("const s = document.createElement('script'); s.textContent = 'window.fromInserted = document.getElementById(\"a\").dataset.seen'; document.body.appendChild(s)", sourceURL: "content")
        #expect(page.hasPageWorld)
        #expect(try Support.eval(page.pageWorld, "fromInserted") as? String == "content")
        #expect(page.worlds.map(\.name) == ["page", "content:test"])
    }

    @Test func anEventHandlerAttributeMakesThePageWorldWhenItRuns() throws {
        let (session, page) = try Support.load("<p id='a' onclick=\"window.clicked = (window.clicked || 0) + 1\">a</p>", contentScripts: [Support.contentScript("document.getElementById('a').click()")])
        defer { withExtendedLifetime(session) {} }
        #expect(page.hasPageWorld)
        #expect(try Support.eval(page.pageWorld, "clicked") as? Double == 1)
        // The content world's own global is untouched.
        #expect(try Support.eval(try page.contentWorld(for: "test"), "typeof clicked") as? String == "undefined")
    }

    @Test func aPageWithAScriptHasItsPageWorldFirst() throws {
        let (session, page) = try Support.load("<script>var early = 1</script>", contentScripts: [Support.contentScript("")])
        defer { withExtendedLifetime(session) {} }
        #expect(page.worlds.map(\.name) == ["page", "content:test"])
        #expect(try Support.eval(page.pageWorld, "early") as? Double == 1)
    }
}
