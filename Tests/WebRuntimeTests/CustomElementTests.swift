import JSKit
import TestSupport
import Testing
import WebRuntime

/// Custom elements beyond what the WebKit-recorded probes cover: per-page registries, failures
/// reported while the page goes on, and reactions outside a wrapped DOM method.
@Suite struct CustomElementTests {
    @Test func definitionsBelongToTheirPage() throws {
        let (session, page) = try Support.load("<script>customElements.define('my-card', class extends HTMLElement { connectedCallback() { this.textContent = 'card'; } });</script><my-card></my-card>", url: "https://site.example/a")
        #expect(try Support.eval(page.pageWorld, "document.querySelector('my-card').textContent") as? String == "card")
        let next = try session.navigate(from: page, html: "<my-card></my-card>", url: "https://site.example/b")
        try session.loop.runUntilIdle()
        #expect(try Support.eval(next.pageWorld, "[customElements.get('my-card'), document.querySelector('my-card').textContent, document.querySelector('my-card').constructor === HTMLElement].join()") as? String == ",,true")
    }

    /// A constructor that throws while the parser makes its element is reported with its position,
    /// and the parser goes on with an HTMLUnknownElement.
    @Test func aThrowingConstructorIsReportedAndParsingGoesOn() throws {
        let (session, page) = try Support.load("""
            <script>customElements.define('bad-el', class extends HTMLElement { constructor() { super(); throw new Error('no'); } });</script>
            <bad-el id=b></bad-el><p id=after>after</p>
            """, url: "https://site.example/a")
        defer { withExtendedLifetime(session) {} }
        #expect(try Support.eval(page.pageWorld, "[document.getElementById('b') instanceof HTMLUnknownElement, document.getElementById('after').textContent].join()") as? String == "true,after")
        #expect(page.errors.count == 1 && page.errors.first?.description.contains("Error: no") == true)
    }

    /// A change made outside the wrapped DOM methods (here: through `Element.prototype.id`) runs its
    /// reactions at the next microtask, HTML's backup element queue.
    @Test func reactionsOutsideWrappedMethodsRunAtTheNextMicrotask() throws {
        let (session, page) = try Support.load("<p>x</p>", url: "https://site.example/a")
        let promise = try page.pageWorld.evaluate("""
            (async () => {
            const log = [];
            customElements.define('id-watch', class extends HTMLElement {
              static get observedAttributes() { return ['id']; }
              attributeChangedCallback(name, old, value) { log.push(name + '=' + value); }
            });
            const e = document.createElement('id-watch');
            e.id = 'one';
            log.push('sync');
            await null;
            return log.join(' ');
            })()
            """, sourceURL: "test")
        let order = try session.settle(promise).toSwift() as? String
        #expect(order == "sync id=one")
    }

    /// A content script sees a page's custom element as an HTMLElement of its own world: the
    /// element is shared, the page's class and its instance's fields are not (WebKit's isolated
    /// world). The page's constructor never reaches the content world (WebKit hands it over
    /// from customElements.get; fixtures/fidelity/cases/isolated-worlds.json says so).
    @Test func contentScriptsSeeDefinedElementsAsTheirOwnHTMLElements() throws {
        let (session, page) = try Support.load("<script>customElements.define('x-shared', class extends HTMLElement { constructor() { super(); this.tag = 1; } hello() { return 'hi'; } });</script><x-shared></x-shared>", url: "https://site.example/a")
        try withExtendedLifetime(session) {
            let content = try page.contentWorld(for: "ext")
            #expect(try Support.eval(page.pageWorld, "[document.querySelector('x-shared').hello(), document.querySelector('x-shared').tag].join()") as? String == "hi,1")
            #expect(try Support.eval(content, """
                const element = document.querySelector('x-shared');
                JSON.stringify([typeof element.hello, element.tag, element instanceof HTMLElement,
                  Object.getPrototypeOf(element) === HTMLElement.prototype, customElements.get('x-shared')])
                """) as? String == #"["undefined",null,true,true,null]"#)
        }
    }
}
