/// A parsed selector list: what ``SelectorSyntax`` accepts and ``SelectorMatcher`` evaluates.
public struct SelectorList: Equatable, Sendable {
    /// The comma-separated selectors.
    public var selectors: [ComplexSelector]
}

/// Compound selectors joined by combinators: `main > .ad + div`.
public struct ComplexSelector: Equatable, Sendable {
    /// Left to right.
    public var compounds: [CompoundSelector]
    /// `combinators[i]` joins `compounds[i]` and `compounds[i + 1]`.
    public var combinators: [Combinator]
    /// Set for the arguments of `:has()`: how the selector relates to the element being tested.
    public var leading: Combinator?
}

/// How two compound selectors relate.
public enum Combinator: String, Equatable, Sendable {
    case descendant = " "
    case child = ">"
    case nextSibling = "+"
    case subsequentSibling = "~"
}

/// A type selector and simple selectors on one element: `div.ad[data-slot]:not(.x)`.
public struct CompoundSelector: Equatable, Sendable {
    /// The element name in lowercase, `*`, or nil when none was written.
    public var typeName: String?
    /// `*|` or `|` before the name (nil: none written). Named prefixes need `@namespace` and are refused.
    public var namespace: String?
    public var simples: [SimpleSelector]
    /// A pseudo-element at the end (`::before`), lowercased; it matches no element (as in `querySelectorAll`).
    public var pseudoElement: String?
}

/// One condition on an element.
public enum SimpleSelector: Equatable, Sendable {
    case id(String)
    case className(String)
    case attribute(AttributeSelector)
    case pseudoClass(PseudoClass)
}

/// `[name]`, `[name=value]` and the other operators, with the `i` flag (WebKit has no `s`).
public struct AttributeSelector: Equatable, Sendable {
    /// What the value is compared with.
    public enum Operator: String, Equatable, Sendable {
        case exists = ""
        case equals = "="
        case includes = "~="
        case dashMatch = "|="
        case prefix = "^="
        case suffix = "$="
        case substring = "*="
    }
    /// Lowercase (HTML attribute names are case-insensitive).
    public var name: String
    public var op: Operator
    public var value: String
    /// The `i` flag: compare ASCII letters case-insensitively.
    public var caseInsensitive: Bool
}

/// The pseudo-classes the checker knows, with their arguments.
public enum PseudoClass: Equatable, Sendable {
    /// A pseudo-class without arguments, lowercased: `first-child`, `hover`, `checked`.
    case keyword(String)
    case not(SelectorList)
    /// `:is()` (and its alias `:-webkit-any()`, and `:matches()` which WebKit maps to it).
    case `is`(SelectorList)
    case `where`(SelectorList)
    /// Relative selectors: each has a ``ComplexSelector/leading`` combinator.
    case has(SelectorList)
    /// `:nth-child(An+B [of S])` and its relatives.
    case nth(NthKind, a: Int, b: Int, of: SelectorList?)
    case lang([String])
    case dir(String)
    /// `:host`/`:host()`, `:state()` and others that never match a document's elements.
    case neverMatches(String)
}

/// Which of the `:nth-` pseudo-classes.
public enum NthKind: String, Equatable, Sendable {
    case child = "nth-child"
    case lastChild = "nth-last-child"
    case ofType = "nth-of-type"
    case lastOfType = "nth-last-of-type"
}
