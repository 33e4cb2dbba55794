import RuleAssistance
import Testing

@Suite struct SelectorSyntaxTests {
    @Test(arguments: [
        ("div[", "'[' is not closed (at character 4)"),
        ("a..b", "'.' must be followed by a class name (at character 2)"),
        (">a", "a selector cannot start with the combinator '>'; remove it or put a selector before it (at character 1)"),
        (":nth-child(2n+)", "':nth-child()' needs an argument of the form An+B, like 2n+1, odd, even or 3 (at character 1)"),
        ("p:unknown", "unknown pseudo-class ':unknown'; WebKit refuses the whole selector (at character 2)"),
        ("a >", "the combinator '>' needs a selector after it (at character 4)"),
        ("[data-ad=\"x\" s]", "'s' is not an attribute flag WebKit accepts; only i (ignore case) is, or leave the flag out (at character 14)"),
        ("div::before span", "nothing can follow a pseudo-element ('::before'); move it to the end (at character 13)"),
        ("p:hover()", "':hover' takes no arguments; write ':hover' (at character 2)"),
        ("a:not", "':not' needs arguments in parentheses, as in ':not(.ad)' (at character 2)"),
        ("  #1ad", "'#1ad' is not an id selector: an id selector cannot start with a digit (escape it, as in '#\\31 ad') (at character 3)"),
        ("x|div", "the namespace prefix 'x|' is not declared, and a filter cannot declare one; write '*|div' or drop the prefix (at character 1)"),
        ("a, b,", "a selector is missing here (at character 6)"),
    ])
    func refusalsSayWhyAndWhere(_ selector: String, _ problem: String) {
        #expect(SelectorSyntax.problem(selector)?.description == problem)
    }

    @Test(arguments: [
        "div", "*", "#a\\:b", ".\\31 23", "[href$='.js' i]", "a:is()", ":is(:bogus, p)", ":is(::after)", ":where(p ::before)",
        "li:nth-child(-n + 3 of .x)", "li:nth-last-of-type(2n- 1)", ":nth-child(+n)", "p:lang(\"de\", en)",
        "main :has(+ aside, > img)", "input::placeholder", "div::-webkit-scrollbar", "p:first-line", "|p", "*|*",
        "p:not(.a, div > .b)", "a:-webkit-any(.x)", "section ~ p + a", "div ", ".a:dir(rtl)",
    ])
    func webKitAcceptsThese(_ selector: String) {
        #expect(SelectorSyntax.problem(selector) == nil, "\(selector): \(SelectorSyntax.problem(selector)?.description ?? "")")
    }

    @Test(arguments: ["+ n", "2 n", "n-", "3.5", "2n+1.5", "- n"])
    func notAnPlusB(_ argument: String) {
        #expect(SelectorSyntax.problem("li:nth-child(\(argument))") != nil, "\(argument)")
    }

    @Test(arguments: [
        ("ad-slot-2", nil), ("sidebar", nil), ("banner_300x250", nil), ("myAdSlot", nil), ("css-grid", nil), ("h264", nil),
        ("menu__item2", nil), ("BBCNews", nil),
        ("a1b2c3", "letters and digits mixed like a hash"), ("_3xk2F", "letters and digits mixed like a hash"),
        ("post-1234567", "a long number, which usually changes per item or page view"),
        ("Button_primary__3aXyZ", "a CSS Modules hash after '__'"), ("kHNtdd", "a random-looking run of letters"),
        ("sc-bdVaJa", "'sc-' and a hash, as a build tool generates"), ("css-17ifzqo", "'css-' and a hash, as a build tool generates"),
    ] as [(String, String?)])
    func generatedNames(_ name: String, _ reason: String?) {
        #expect(GeneratedNames.reason(name) == reason)
    }
}
