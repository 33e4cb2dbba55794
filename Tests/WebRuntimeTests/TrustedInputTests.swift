import TestSupport
import Testing
import WebRuntime

/// Trusted input from the harness. Real WebKit cannot be driven with trusted input from page
/// script, so the recorder cannot check these: the expectations follow UI Events §4.3.3 (the order
/// of mouse events around a click), HTML 6.6 (focusing steps: blur/focusout, then focus/focusin,
/// and mousedown's default action moves focus), HTML 4.10.5.5 (checkbox activation; text
/// controls fire change when their value is committed) and UI Events §5 (keydown, keypress, the
/// edit as `input`, keyup), HTML 4.10.21 (a submit button's activation and Enter's implicit
/// submission fire `submit` at the form).
@Suite struct TrustedInputTests {
    enum Action: Sendable {
        case click(String)
        case type(String, into: String)
        case press(String)
        case blur(String)
        case choose(String, in: String)
    }

    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let html: String
        let actions: [Action]
        let expected: [String]
        var description: String { name }
    }

    static let logger = """
        <script>
        const seen = [];
        for (const type of ["pointerdown", "mousedown", "pointerup", "mouseup", "click", "focus", "blur", "focusin", "focusout",
                            "keydown", "keypress", "keyup", "input", "change", "submit"]) {
          document.addEventListener(type, (e) => seen.push(e.type + " " + (e.target.id || e.target.nodeName) + (e.isTrusted ? "" : " untrusted")), true);
        }
        </script>
        """

    static let cases: [Case] = [
        Case(name: "click on a button", html: "<button id=b>go</button>", actions: [.click("#b")],
             expected: ["pointerdown b", "mousedown b", "focus b", "focusin b", "pointerup b", "mouseup b", "click b"]),
        Case(name: "click toggles a checkbox, then input and change", html: "<input id=c type=checkbox>", actions: [.click("#c")],
             expected: ["pointerdown c", "mousedown c", "focus c", "focusin c", "pointerup c", "mouseup c", "click c", "input c", "change c"]),
        Case(name: "a cancelled mousedown does not move focus", html: "<button id=b>go</button><script>document.getElementById('b').addEventListener('mousedown', (e) => e.preventDefault())</script>",
             actions: [.click("#b")], expected: ["pointerdown b", "mousedown b", "pointerup b", "mouseup b", "click b"]),
        Case(name: "clicking inside a button focuses the button", html: "<button id=b><span id=s>go</span></button>", actions: [.click("#s")],
             expected: ["pointerdown s", "mousedown s", "focus b", "focusin b", "pointerup s", "mouseup s", "click s"]),
        Case(name: "clicking elsewhere blurs the focused field", html: "<input id=t><p id=p>text</p>", actions: [.click("#t"), .click("#p")],
             expected: ["pointerdown t", "mousedown t", "focus t", "focusin t", "pointerup t", "mouseup t", "click t",
                        "pointerdown p", "mousedown p", "blur t", "focusout t", "pointerup p", "mouseup p", "click p"]),
        Case(name: "typing into a text field", html: "<input id=t>", actions: [.type("ab", into: "#t")],
             expected: ["focus t", "focusin t", "keydown t", "keypress t", "input t", "keyup t", "keydown t", "keypress t", "input t", "keyup t"]),
        Case(name: "Enter commits a changed value", html: "<input id=t>", actions: [.type("x", into: "#t"), .press("Enter")],
             expected: ["focus t", "focusin t", "keydown t", "keypress t", "input t", "keyup t", "keydown t", "keypress t", "change t", "keyup t"]),
        Case(name: "blur commits a changed value before blurring", html: "<input id=t>", actions: [.type("x", into: "#t"), .blur("#t")],
             expected: ["focus t", "focusin t", "keydown t", "keypress t", "input t", "keyup t", "change t", "blur t", "focusout t"]),
        Case(name: "a cancelled keydown edits nothing", html: "<input id=t><script>document.getElementById('t').addEventListener('keydown', (e) => e.preventDefault())</script>",
             actions: [.type("x", into: "#t")], expected: ["focus t", "focusin t", "keydown t", "keyup t"]),
        Case(name: "keys without a focused element go to the body", html: "<p>text</p>", actions: [.press("Escape"), .press("q")],
             expected: ["keydown BODY", "keyup BODY", "keydown BODY", "keypress BODY", "keyup BODY"]),
        Case(name: "choosing an option", html: "<select id=s><option>a</option><option>b</option></select>", actions: [.choose("b", in: "#s")],
             expected: ["input s", "change s"]),
        Case(name: "a disabled button gets no click", html: "<button id=b disabled>go</button>", actions: [.click("#b")],
             expected: ["pointerdown b", "mousedown b", "pointerup b", "mouseup b"]),
        Case(name: "clicking a submit button submits its form", html: "<form id=f><input id=t><button id=b>go</button></form>", actions: [.click("#b")],
             expected: ["pointerdown b", "mousedown b", "focus b", "focusin b", "pointerup b", "mouseup b", "click b", "submit f"]),
        Case(name: "a button of type button does not submit", html: "<form id=f><button id=b type=button>go</button></form>", actions: [.click("#b")],
             expected: ["pointerdown b", "mousedown b", "focus b", "focusin b", "pointerup b", "mouseup b", "click b"]),
        Case(name: "a cancelled click does not submit", html: "<form id=f><button id=b>go</button></form><script>document.getElementById('b').addEventListener('click', (e) => e.preventDefault())</script>",
             actions: [.click("#b")], expected: ["pointerdown b", "mousedown b", "focus b", "focusin b", "pointerup b", "mouseup b", "click b"]),
        Case(name: "Enter submits through the form's default button", html: "<form id=f><input id=t><button id=b>go</button></form>", actions: [.type("x", into: "#t"), .press("Enter")],
             expected: ["focus t", "focusin t", "keydown t", "keypress t", "input t", "keyup t", "keydown t", "keypress t", "change t", "click b", "submit f", "keyup t"]),
        Case(name: "Enter submits a form whose only field it is", html: "<form id=f><input id=t></form>", actions: [.type("x", into: "#t"), .press("Enter")],
             expected: ["focus t", "focusin t", "keydown t", "keypress t", "input t", "keyup t", "keydown t", "keypress t", "change t", "submit f", "keyup t"]),
    ]

    @Test(arguments: cases) func userInputDispatchesTrustedEventsInOrder(_ testCase: Case) throws {
        let (session, page) = try Support.load(Self.logger + testCase.html)
        defer { withExtendedLifetime(session) {} }
        for action in testCase.actions {
            switch action {
            case let .click(selector): try page.click(selector)
            case let .type(text, selector): try page.type(text, into: selector)
            case let .press(key): try page.pressKey(key)
            case let .blur(selector): try page.blur(selector)
            case let .choose(value, selector): try page.choose(value, in: selector)
            }
        }
        let seen = (try Support.eval(page.pageWorld, "seen") as? [Any?])?.compactMap { $0 as? String }
        #expect(seen == testCase.expected)
        #expect(page.errors.isEmpty)
    }

    @Test func typedTextLandsInTheFieldAndCheckboxesToggle() throws {
        let (session, page) = try Support.load("<input id=t value=x><input id=c type=checkbox>")
        defer { withExtendedLifetime(session) {} }
        try page.type("yz", into: "#t")
        try page.pressKey("Backspace")
        #expect(try Support.eval(page.pageWorld, "document.getElementById('t').value") as? String == "xy")
        try page.click("#c")
        #expect(try Support.eval(page.pageWorld, "document.getElementById('c').checked") as? Bool == true)
        #expect(try Support.eval(page.pageWorld, "document.activeElement.id") as? String == "c")
    }

    /// HTML 4.10.5.2.10: select(), setSelectionRange() and the selection attributes on text
    /// fields; typing replaces the selection and leaves the caret after the typed text; a value
    /// set by script puts the caret at its end; types without selection answer null or throw.
    @Test func textSelectionAndTypingIntoIt() throws {
        let (session, page) = try Support.load("<input id=t><input id=c type=checkbox><script>var selects = 0; document.getElementById('t').addEventListener('select', () => selects++);</script>")
        defer { withExtendedLifetime(session) {} }
        try page.type("abc", into: "#t")
        _ = try Support.eval(page.pageWorld, "document.getElementById('t').setSelectionRange(1, 2)")
        try page.type("X", into: "#t")
        #expect(try Support.eval(page.pageWorld, "const t = document.getElementById('t'); t.value + ' ' + t.selectionStart + ' ' + t.selectionEnd") as? String == "aXc 2 2")
        try page.pressKey("Backspace")
        #expect(try Support.eval(page.pageWorld, "document.getElementById('t').value") as? String == "ac")
        _ = try Support.eval(page.pageWorld, "document.getElementById('t').select()")
        try page.type("Z", into: "#t")
        #expect(try Support.eval(page.pageWorld, "document.getElementById('t').value") as? String == "Z")
        _ = try Support.eval(page.pageWorld, "document.getElementById('t').value = 'hello'")
        try page.type("!", into: "#t")
        #expect(try Support.eval(page.pageWorld, "document.getElementById('t').value") as? String == "hello!")
        try session.loop.runUntilIdle()
        #expect(try Support.eval(page.pageWorld, "selects") as? Double == 2)
        #expect(try Support.eval(page.pageWorld, "String(document.getElementById('c').selectionStart)") as? String == "null")
        #expect(try Support.eval(page.pageWorld, "try { document.getElementById('c').setSelectionRange(0, 0); 'no error' } catch (e) { e.name }") as? String == "InvalidStateError")
    }

    @Test func pageScriptCannotMakeTrustedEvents() throws {
        let (session, page) = try Support.load("<button id=b>go</button><script>const log = []; const b = document.getElementById('b'); b.addEventListener('click', (e) => log.push(e.isTrusted)); b.click(); b.dispatchEvent(new MouseEvent('click'));</script>")
        defer { withExtendedLifetime(session) {} }
        try page.click("#b")
        #expect(try Support.eval(page.pageWorld, "log") as? [Bool] == [false, false, true])
    }

    @Test func aMissingElementIsAClearError() throws {
        let (session, page) = try Support.load("<p>text</p>")
        defer { withExtendedLifetime(session) {} }
        #expect(throws: ElementNotFoundError.self) { try page.click("#nope") }
    }
}
