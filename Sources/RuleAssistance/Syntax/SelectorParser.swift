/// Parses selector tokens the way WebKit's `CSSSelectorParser` does for `querySelector` and
/// author style sheets: Selectors Level 4 with WebKit's pseudo-class and pseudo-element names,
/// `:is()`/`:where()` forgiving (an argument that fails is dropped), `:not()` and `:has()`
/// unforgiving, no `:has()` inside `:has()`, no pseudo-element inside a pseudo-class, and after a
/// pseudo-element only `:is()`, `:where()` or `:not()`.
struct SelectorParser {
    /// Why the text is not a selector, and where.
    struct Failure: Error, Equatable, Sendable {
        let message: String
        let position: Int
    }

    private let tokens: [CSSToken]
    private var index = 0
    /// Inside a pseudo-class's arguments pseudo-elements are not allowed.
    private var insidePseudoClass = false
    private var insideHas = false
    private let end: Int

    init(tokens: [CSSToken], length: Int) {
        self.tokens = tokens
        end = length + 1
    }

    /// The selector list of the whole text.
    /// - Throws: ``Failure`` at the first token that makes it invalid.
    mutating func parseAll() throws(Failure) -> SelectorList {
        skipWhitespace()
        let list = try selectorList(relative: false)
        if let token = peek() { throw unexpected(token) }
        return list
    }

    // MARK: - Tokens

    private func peek(_ offset: Int = 0) -> CSSToken? {
        index + offset < tokens.count ? tokens[index + offset] : nil
    }

    private var position: Int { peek()?.position ?? end }

    private mutating func skipWhitespace() {
        while peek()?.kind == .whitespace { index += 1 }
    }

    private func fail(_ message: String, at position: Int? = nil) -> Failure {
        Failure(message: message, position: position ?? self.position)
    }

    private func unexpected(_ token: CSSToken) -> Failure {
        switch token.kind {
        case .delim(let c) where c == ">" || c == "+" || c == "~":
            return fail("the combinator '\(c)' needs a selector on both sides", at: token.position)
        case .comma:
            return fail("',' needs a selector on both sides; remove the empty entry", at: token.position)
        case .delim("."):
            return fail("'.' must be followed by a class name", at: token.position)
        case .hash(let name, _):
            return fail("'#\(name)' is not an id selector: an id selector cannot start with a digit (escape it, as in '#\\3\(name.prefix(1)) \(name.dropFirst())')", at: token.position)
        case .badString:
            return fail("a quoted string is not closed on its line", at: token.position)
        default:
            return fail("unexpected '\(token.text)'", at: token.position)
        }
    }

    // MARK: - Lists and complex selectors

    private mutating func selectorList(relative: Bool) throws(Failure) -> SelectorList {
        var selectors = [try complexSelector(relative: relative)]
        while peek()?.kind == .comma {
            index += 1
            skipWhitespace()
            selectors.append(try complexSelector(relative: relative))
        }
        return SelectorList(selectors: selectors)
    }

    /// `:is()` and `:where()`: a selector that fails is dropped up to the next comma at its level.
    private mutating func forgivingList() -> SelectorList {
        var selectors: [ComplexSelector] = []
        while true {
            let start = index
            let saved = (insidePseudoClass, insideHas)
            do {
                let selector = try complexSelector(relative: false)
                if peek() == nil || peek()?.kind == .comma || peek()?.kind == .rightParen {
                    selectors.append(selector)
                } else {
                    skipToComma()
                }
            } catch {
                (insidePseudoClass, insideHas) = saved
                index = start
                skipToComma()
            }
            guard peek()?.kind == .comma else { break }
            index += 1
            skipWhitespace()
        }
        return SelectorList(selectors: selectors)
    }

    /// Skips to the next comma or the closing parenthesis of this level.
    private mutating func skipToComma() {
        var depth = 0
        while let token = peek() {
            switch token.kind {
            case .leftParen, .function, .leftBracket: depth += 1
            case .rightParen, .rightBracket:
                if depth == 0 { return }
                depth -= 1
            case .comma where depth == 0: return
            default: break
            }
            index += 1
        }
    }

    private mutating func complexSelector(relative: Bool) throws(Failure) -> ComplexSelector {
        var leading: Combinator?
        if relative {
            leading = combinator() ?? .descendant
        } else if case .delim(let c) = peek()?.kind, c == ">" || c == "+" || c == "~" {
            throw fail("a selector cannot start with the combinator '\(c)'; remove it or put a selector before it")
        }
        var compounds = [try compoundSelector()]
        var combinators: [Combinator] = []
        while true {
            let hadSpace = peek()?.kind == .whitespace
            skipWhitespace()
            var joiner: Combinator?
            if case .delim(let c) = peek()?.kind, let explicit = Combinator(rawValue: String(c)) {
                index += 1
                skipWhitespace()
                joiner = explicit
            } else if hadSpace, startsCompound() {
                joiner = .descendant
            }
            guard let joiner else { break }
            if compounds.last?.pseudoElement != nil {
                throw fail("nothing can follow a pseudo-element ('::\(compounds.last?.pseudoElement ?? "")'); move it to the end")
            }
            guard startsCompound() else {
                throw fail("the combinator '\(joiner == .descendant ? " " : joiner.rawValue)' needs a selector after it")
            }
            combinators.append(joiner)
            compounds.append(try compoundSelector())
        }
        return ComplexSelector(compounds: compounds, combinators: combinators, leading: leading)
    }

    private mutating func combinator() -> Combinator? {
        skipWhitespace()
        if case .delim(let c) = peek()?.kind, c != " ", let value = Combinator(rawValue: String(c)) {
            index += 1
            skipWhitespace()
            return value
        }
        return nil
    }

    private func startsCompound() -> Bool {
        guard let token = peek() else { return false }
        switch token.kind {
        case .ident, .hash, .colon, .leftBracket: return true
        case .delim(let c): return c == "*" || c == "." || c == "|" || c == "&"
        default: return false
        }
    }

    // MARK: - Compound selectors

    private mutating func compoundSelector() throws(Failure) -> CompoundSelector {
        var compound = CompoundSelector(typeName: nil, namespace: nil, simples: [], pseudoElement: nil)
        try typeSelector(into: &compound)
        let hadType = compound.typeName != nil
        var count = 0
        while let token = peek() {
            switch token.kind {
            case .hash(let name, let isID):
                guard isID else { throw unexpected(token) }
                index += 1
                try afterPseudoElement(compound, "#" + name)
                compound.simples.append(.id(name))
            case .delim("."):
                index += 1
                guard case .ident(let name) = peek()?.kind else {
                    throw fail("'.' must be followed by a class name", at: token.position)
                }
                index += 1
                try afterPseudoElement(compound, "." + name)
                compound.simples.append(.className(name))
            case .delim("&"):
                // CSS Nesting's `&`: outside a nested rule it stands for `:scope`.
                index += 1
                compound.simples.append(.pseudoClass(.keyword("scope")))
            case .leftBracket:
                try afterPseudoElement(compound, "[")
                compound.simples.append(.attribute(try attributeSelector()))
            case .colon:
                try pseudo(into: &compound)
            default:
                if !hadType && count == 0 { throw expectedSelector(token) }
                return compound
            }
            count += 1
        }
        if !hadType && count == 0 { throw fail("a selector is missing here") }
        return compound
    }

    private func expectedSelector(_ token: CSSToken) -> Failure {
        switch token.kind {
        case .delim, .comma, .hash, .badString: return unexpected(token)
        case .rightParen: return fail("a selector is missing before ')'", at: token.position)
        default: return fail("'\(token.text)' is not a selector", at: token.position)
        }
    }

    private func afterPseudoElement(_ compound: CompoundSelector, _ what: String) throws(Failure) {
        if let element = compound.pseudoElement {
            throw fail("'\(what)' cannot follow the pseudo-element '::\(element)'; move the pseudo-element to the end")
        }
    }

    /// `div`, `*`, `*|div`, `|div`; a named namespace prefix is refused (it needs `@namespace`).
    private mutating func typeSelector(into compound: inout CompoundSelector) throws(Failure) {
        var name: String?
        switch peek()?.kind {
        case .ident(let value): name = value.lowercased(); index += 1
        case .delim("*"): name = "*"; index += 1
        case .delim("|"): name = ""
        default: return
        }
        if case .delim("|") = peek()?.kind {
            let prefix = name ?? ""
            let bar = position
            index += 1
            switch peek()?.kind {
            case .ident(let value): compound.typeName = value.lowercased(); index += 1
            case .delim("*"): compound.typeName = "*"; index += 1
            default: throw fail("'|' must be followed by an element name or '*'", at: bar)
            }
            guard prefix == "*" || prefix == "" else {
                throw fail("the namespace prefix '\(prefix)|' is not declared, and a filter cannot declare one; write '*|\(compound.typeName ?? "")' or drop the prefix", at: bar - prefix.count)
            }
            compound.namespace = prefix + "|"
            return
        }
        compound.typeName = name
    }

    // MARK: - Attribute selectors

    private mutating func attributeSelector() throws(Failure) -> AttributeSelector {
        let open = position
        index += 1
        skipWhitespace()
        var name: String
        switch peek()?.kind {
        case .ident(let value): name = value; index += 1
        case .delim("*") where peek(1)?.kind == .delim("|"):
            index += 2
            guard case .ident(let value) = peek()?.kind else { throw fail("an attribute name must follow '*|'") }
            name = value; index += 1
        case .delim("|"):
            index += 1
            guard case .ident(let value) = peek()?.kind else { throw fail("an attribute name must follow '|'") }
            name = value; index += 1
        default:
            throw fail("'[' must be followed by an attribute name, as in '[data-ad]'", at: open)
        }
        if case .delim("|") = peek()?.kind, case .ident(let local) = peek(1)?.kind {
            throw fail("the namespace prefix '\(name)|' is not declared, and a filter cannot declare one; write '[*|\(local)]' or '[\(local)]'")
        }
        name = name.lowercased()
        skipWhitespace()
        if peek()?.kind == .rightBracket {
            index += 1
            return AttributeSelector(name: name, op: .exists, value: "", caseInsensitive: false)
        }
        let op: AttributeSelector.Operator
        switch peek()?.kind {
        case .delim("="): op = .equals; index += 1
        case .delim(let c) where peek(1)?.kind == .delim("="):
            guard let found = AttributeSelector.Operator(rawValue: String(c) + "=") else {
                throw fail("'\(c)=' is not an attribute operator; use =, ~=, |=, ^=, $= or *=")
            }
            op = found
            index += 2
        default:
            throw fail("expected ']' or an operator (=, ~=, |=, ^=, $=, *=) after '[\(name)'")
        }
        skipWhitespace()
        let value: String
        switch peek()?.kind {
        case .ident(let text), .string(let text): value = text; index += 1
        case .badString: throw fail("a quoted string is not closed on its line")
        default:
            throw fail("the value after '[\(name)\(op.rawValue)' must be a name or a quoted string, as in '[\(name)\(op.rawValue)\"value\"]'")
        }
        skipWhitespace()
        var caseInsensitive = false
        if case .ident(let flag) = peek()?.kind {
            // WebKit takes only `i` (consumeAttributeFlags); Selectors 4's `s` is refused there.
            guard flag.lowercased() == "i" else {
                throw fail("'\(flag)' is not an attribute flag WebKit accepts; only i (ignore case) is, or leave the flag out")
            }
            caseInsensitive = true
            index += 1
            skipWhitespace()
        }
        guard peek()?.kind == .rightBracket else {
            if let token = peek() { throw fail("expected ']' to close the attribute selector, found '\(token.text)'") }
            throw fail("'[' is not closed", at: open)
        }
        index += 1
        return AttributeSelector(name: name, op: op, value: value, caseInsensitive: caseInsensitive)
    }

    // MARK: - Pseudo-classes and pseudo-elements

    private mutating func pseudo(into compound: inout CompoundSelector) throws(Failure) {
        let start = position
        index += 1
        var colons = 1
        if peek()?.kind == .colon { colons = 2; index += 1 }
        let name: String
        let isFunction: Bool
        switch peek()?.kind {
        case .ident(let value): name = value.lowercased(); isFunction = false
        case .function(let value): name = value.lowercased(); isFunction = true
        default: throw fail("'\(colons == 1 ? ":" : "::")' must be followed by a pseudo-class or pseudo-element name", at: start)
        }
        index += 1
        let written = (colons == 1 ? ":" : "::") + name + (isFunction ? "()" : "")
        if colons == 2 || (!isFunction && PseudoNames.legacyPseudoElements.contains(name)) {
            try pseudoElement(name, isFunction: isFunction, written: written, start: start, into: &compound)
            return
        }
        if let element = compound.pseudoElement, !["is", "where", "not"].contains(name) {
            throw fail("'\(written)' cannot follow the pseudo-element '::\(element)'", at: start)
        }
        if !isFunction {
            if PseudoNames.functional.contains(name) {
                throw fail("'\(written)' needs arguments in parentheses, as in ':\(name)(\(PseudoNames.example(name)))'", at: start)
            }
            guard PseudoNames.keywords.contains(name) else {
                throw fail("unknown pseudo-class '\(written)'; WebKit refuses the whole selector", at: start)
            }
            let value: PseudoClass = name == "host" ? .neverMatches(name) : .keyword(name)
            compound.simples.append(.pseudoClass(value))
            return
        }
        guard PseudoNames.functional.contains(name) else {
            if PseudoNames.keywords.contains(name) { throw fail("':\(name)' takes no arguments; write ':\(name)'", at: start) }
            throw fail("unknown pseudo-class '\(written)'; WebKit refuses the whole selector", at: start)
        }
        skipWhitespace()
        let value = try pseudoArguments(name, written: written, start: start)
        skipWhitespace()
        guard peek()?.kind == .rightParen else {
            if let token = peek() { throw fail("unexpected '\(token.text)' in '\(written)'", at: token.position) }
            throw fail("'(' is not closed", at: start)
        }
        index += 1
        compound.simples.append(.pseudoClass(value))
    }

    private mutating func pseudoArguments(_ name: String, written: String, start: Int) throws(Failure) -> PseudoClass {
        let saved = insidePseudoClass
        insidePseudoClass = true
        defer { insidePseudoClass = saved }
        switch name {
        case "not":
            if peek()?.kind == .rightParen { throw fail("':not()' needs a selector inside", at: start) }
            return .not(try selectorList(relative: false))
        case "is", "-webkit-any":
            return .is(forgivingList())
        case "where":
            return .where(forgivingList())
        case "has":
            guard !insideHas else { throw fail("':has()' cannot be used inside ':has()'", at: start) }
            insideHas = true
            defer { insideHas = false }
            if peek()?.kind == .rightParen { throw fail("':has()' needs a selector inside", at: start) }
            return .has(try selectorList(relative: true))
        case "nth-child", "nth-last-child", "nth-of-type", "nth-last-of-type":
            let kind = NthKind(rawValue: name) ?? .child
            var reader = ANPlusB(tokens: tokens, index: index)
            guard let (a, b) = reader.parse() else {
                throw fail("'\(written)' needs an argument of the form An+B, like 2n+1, odd, even or 3", at: start)
            }
            index = reader.index
            skipWhitespace()
            if case .ident(let word) = peek()?.kind, word.lowercased() == "of" {
                guard kind == .child || kind == .lastChild else {
                    throw fail("'\(written)' takes no 'of' selector (only :nth-child() and :nth-last-child() do)")
                }
                index += 1
                skipWhitespace()
                return .nth(kind, a: a, b: b, of: try selectorList(relative: false))
            }
            return .nth(kind, a: a, b: b, of: nil)
        case "lang":
            var ranges: [String] = []
            repeat {
                if peek()?.kind == .comma { index += 1; skipWhitespace() }
                switch peek()?.kind {
                case .ident(let value), .string(let value): ranges.append(value); index += 1
                default: throw fail("':lang()' takes language tags, as in ':lang(en)'")
                }
                skipWhitespace()
            } while peek()?.kind == .comma
            return .lang(ranges)
        case "dir", "state":
            guard case .ident(let value) = peek()?.kind else { throw fail("'\(written)' takes one name, as in ':\(name)(\(PseudoNames.example(name)))'") }
            index += 1
            return name == "dir" ? .dir(value.lowercased()) : .neverMatches(name)
        default: // host()
            let inner = try compoundSelector()
            _ = inner
            return .neverMatches(name)
        }
    }

    private mutating func pseudoElement(_ name: String, isFunction: Bool, written: String, start: Int, into compound: inout CompoundSelector) throws(Failure) {
        if insidePseudoClass { throw fail("a pseudo-element ('\(written)') cannot be used inside a pseudo-class", at: start) }
        if let element = compound.pseudoElement { throw fail("'\(written)' cannot follow the pseudo-element '::\(element)'", at: start) }
        let vendor = name.hasPrefix("-webkit-")
        if isFunction {
            guard PseudoNames.functionalPseudoElements.contains(name) else {
                throw fail("unknown pseudo-element '\(written)'", at: start)
            }
            skipToComma()
            guard peek()?.kind == .rightParen else { throw fail("'(' is not closed", at: start) }
            index += 1
        } else if !vendor && !PseudoNames.pseudoElements.contains(name) {
            throw fail("unknown pseudo-element '\(written)'", at: start)
        }
        compound.pseudoElement = name
    }
}
