/// Whether text is a personal-filter selector: ADV's own rules (the ones
/// `WebExtension/shared/selector-validation.js` applies first), then WebKit's selector grammar.
///
/// ADV wraps each filter in a rule of its own style sheet, so text that could close that rule
/// (braces, semicolons), comment it out, start an at-rule, or leave a string or bracket open
/// (CSS would close it at the end of the input, swallowing the rules after it) is refused
/// before parsing, even where `querySelector` alone would accept it (`div[title`).
public enum SelectorSyntax {
    /// Longest selector, in UTF-16 code units (what the extension measures).
    public static let maxLength = 4096

    /// Why a selector is refused: a lowercase explanation and the 1-based character position.
    public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
        public let message: String
        /// 1-based position of the offending character (in Unicode scalars).
        public let position: Int
        public var description: String { "\(message) (at character \(position))" }
    }

    /// The parsed selector list.
    /// - Throws: ``Problem`` naming the first reason the text is not a valid selector.
    public static func parse(_ text: String) throws(Problem) -> SelectorList {
        let selector = trimmed(text)
        let offset = leadingWhitespace(text)
        if let problem = adviseAgainst(selector) {
            throw Problem(message: problem.message, position: problem.position + offset)
        }
        var parser = SelectorParser(tokens: CSSTokenizer.tokens(selector), length: selector.unicodeScalars.count)
        do {
            return try parser.parseAll()
        } catch {
            throw Problem(message: error.message, position: error.position + offset)
        }
    }

    /// nil when `text` is a valid selector, else the problem.
    public static func problem(_ text: String) -> Problem? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    // MARK: - ADV's own rules

    static func trimmed(_ text: String) -> String {
        var scalars = Substring(text).unicodeScalars[...]
        while let first = scalars.first, CSSTokenizer.isWhitespace(first) || first == " " { scalars = scalars.dropFirst() }
        while let last = scalars.last, CSSTokenizer.isWhitespace(last) { scalars = scalars.dropLast() }
        return String(String.UnicodeScalarView(scalars))
    }

    private static func leadingWhitespace(_ text: String) -> Int {
        text.unicodeScalars.prefix { CSSTokenizer.isWhitespace($0) }.count
    }

    /// The checks of `ADVSelectorValidation.validate` before the engine's, in the same order.
    private static func adviseAgainst(_ selector: String) -> (message: String, position: Int)? {
        let scalars = Array(selector.unicodeScalars)
        if scalars.isEmpty { return ("empty selector", 1) }
        if selector.utf16.count > maxLength { return ("selector longer than \(maxLength) characters", maxLength + 1) }
        if let at = scalars.firstIndex(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return ("control characters are not allowed", at + 1)
        }
        if let at = find("/*", in: scalars) ?? find("*/", in: scalars) { return ("comments are not allowed in a selector", at + 1) }
        if let at = scalars.firstIndex(where: { $0 == "{" || $0 == "}" || $0 == ";" }) {
            return ("'{', '}' and ';' are not allowed in a selector", at + 1)
        }
        if scalars.first == "@" { return ("only selectors are allowed, not CSS rules", 1) }
        if let at = find("<!--", in: scalars) ?? find("-->", in: scalars) { return ("only selectors are allowed, not CSS rules", at + 1) }
        return unclosed(scalars)
    }

    private static func find(_ needle: String, in scalars: [Unicode.Scalar]) -> Int? {
        let pattern = Array(needle.unicodeScalars)
        guard scalars.count >= pattern.count else { return nil }
        return (0...(scalars.count - pattern.count)).first { Array(scalars[$0..<($0 + pattern.count)]) == pattern }
    }

    /// What is left open: a string, `[` or `(`; a `]` or `)` without its opening; a lone `\` at the end.
    private static func unclosed(_ scalars: [Unicode.Scalar]) -> (message: String, position: Int)? {
        var open: [(Unicode.Scalar, Int)] = []
        var quote: (Unicode.Scalar, Int)?
        var i = 0
        while i < scalars.count {
            let c = scalars[i]
            if c == "\\" {
                if i == scalars.count - 1 { return ("a selector cannot end in a lone '\\'", i + 1) }
                i += 1
            } else if let (q, _) = quote {
                if c == q { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = (c, i)
            } else if c == "[" || c == "(" {
                open.append((c, i))
            } else if c == "]" || c == ")" {
                let opener: Unicode.Scalar = c == "]" ? "[" : "("
                guard let last = open.popLast(), last.0 == opener else {
                    return ("'\(c)' has no matching '\(opener)'", i + 1)
                }
            }
            i += 1
        }
        if let (_, at) = quote { return ("a quoted string is not closed", at + 1) }
        if let (c, at) = open.last { return ("'\(c)' is not closed", at + 1) }
        return nil
    }
}
