/// Splits selector text into CSS tokens, following CSS Syntax Level 3 §4.3 (the tokenizer WebKit's
/// `CSSTokenizer` implements). Comments never reach it: ``SelectorSyntax`` refuses them first.
struct CSSTokenizer {
    private let scalars: [Unicode.Scalar]
    private var index = 0

    init(_ text: String) { scalars = Array(text.unicodeScalars) }

    /// Every token of the text, in order.
    static func tokens(_ text: String) -> [CSSToken] {
        var tokenizer = CSSTokenizer(text)
        var tokens: [CSSToken] = []
        while let token = tokenizer.next() { tokens.append(token) }
        return tokens
    }

    // MARK: - Code point classes

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    static func isWhitespace(_ c: Unicode.Scalar?) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0C}" }
    static func isDigit(_ c: Unicode.Scalar?) -> Bool { c.map { ("0"..."9").contains($0) } ?? false }
    static func isHexDigit(_ c: Unicode.Scalar?) -> Bool {
        guard let c else { return false }
        return isDigit(c) || ("a"..."f").contains(c) || ("A"..."F").contains(c)
    }
    static func isNameStart(_ c: Unicode.Scalar?) -> Bool {
        guard let c else { return false }
        return ("a"..."z").contains(c) || ("A"..."Z").contains(c) || c == "_" || c.value >= 0x80
    }
    static func isName(_ c: Unicode.Scalar?) -> Bool { isNameStart(c) || isDigit(c) || c == "-" }
    static func isValidEscape(_ first: Unicode.Scalar?, _ second: Unicode.Scalar?) -> Bool {
        first == "\\" && second != "\n" && second != nil
    }
    /// §4.3.9: whether three code points would start an identifier.
    static func startsIdentifier(_ a: Unicode.Scalar?, _ b: Unicode.Scalar?, _ c: Unicode.Scalar?) -> Bool {
        if a == "-" { return isNameStart(b) || b == "-" || isValidEscape(b, c) }
        if isNameStart(a) { return true }
        return isValidEscape(a, b)
    }
    /// §4.3.10: whether three code points would start a number.
    static func startsNumber(_ a: Unicode.Scalar?, _ b: Unicode.Scalar?, _ c: Unicode.Scalar?) -> Bool {
        if a == "+" || a == "-" { return isDigit(b) || (b == "." && isDigit(c)) }
        if a == "." { return isDigit(b) }
        return isDigit(a)
    }

    // MARK: - Tokens

    mutating func next() -> CSSToken? {
        guard let c = peek() else { return nil }
        let start = index + 1
        func token(_ kind: CSSToken.Kind) -> CSSToken { CSSToken(kind: kind, position: start) }
        if Self.isWhitespace(c) {
            while Self.isWhitespace(peek()) { index += 1 }
            return token(.whitespace)
        }
        switch c {
        case "\"", "'":
            index += 1
            return token(consumeString(until: c))
        case "#":
            if Self.isName(peek(1)) || Self.isValidEscape(peek(1), peek(2)) {
                let isID = Self.startsIdentifier(peek(1), peek(2), peek(3))
                index += 1
                return token(.hash(consumeName(), isID: isID))
            }
        case "(": index += 1; return token(.leftParen)
        case ")": index += 1; return token(.rightParen)
        case "[": index += 1; return token(.leftBracket)
        case "]": index += 1; return token(.rightBracket)
        case "{": index += 1; return token(.leftBrace)
        case "}": index += 1; return token(.rightBrace)
        case ",": index += 1; return token(.comma)
        case ":": index += 1; return token(.colon)
        case ";": index += 1; return token(.semicolon)
        case "+", ".":
            if Self.startsNumber(c, peek(1), peek(2)) { return token(consumeNumeric()) }
        case "-":
            if Self.startsNumber(c, peek(1), peek(2)) { return token(consumeNumeric()) }
            if peek(1) == "-" && peek(2) == ">" { index += 3; return token(.cdc) }
            if Self.startsIdentifier(c, peek(1), peek(2)) { return token(consumeIdentLike()) }
        case "<":
            if peek(1) == "!" && peek(2) == "-" && peek(3) == "-" { index += 4; return token(.cdo) }
        case "@":
            if Self.startsIdentifier(peek(1), peek(2), peek(3)) {
                index += 1
                return token(.atKeyword(consumeName()))
            }
        case "\\":
            if Self.isValidEscape(c, peek(1)) { return token(consumeIdentLike()) }
        default:
            if Self.isDigit(c) { return token(consumeNumeric()) }
            if Self.isNameStart(c) { return token(consumeIdentLike()) }
        }
        index += 1
        return token(.delim(Character(c)))
    }

    private mutating func consumeString(until quote: Unicode.Scalar) -> CSSToken.Kind {
        var value = String.UnicodeScalarView()
        while let c = peek() {
            index += 1
            if c == quote { return .string(String(value)) }
            if c == "\n" { index -= 1; return .badString }
            if c == "\\" {
                guard let next = peek() else { continue }
                if next == "\n" { index += 1; continue }
                value.append(consumeEscape())
            } else {
                value.append(c)
            }
        }
        return .string(String(value))
    }

    /// §4.3.7, with the backslash already consumed.
    private mutating func consumeEscape() -> Unicode.Scalar {
        guard let c = peek() else { return "\u{FFFD}" }
        index += 1
        guard Self.isHexDigit(c) else { return c }
        var hex = String(c)
        while hex.count < 6, Self.isHexDigit(peek()), let digit = peek() {
            hex.unicodeScalars.append(digit)
            index += 1
        }
        if Self.isWhitespace(peek()) { index += 1 }
        guard let value = UInt32(hex, radix: 16), value != 0, let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
        return scalar
    }

    private mutating func consumeName() -> String {
        var name = String.UnicodeScalarView()
        while let c = peek() {
            if Self.isName(c) {
                name.append(c)
                index += 1
            } else if Self.isValidEscape(c, peek(1)) {
                index += 1
                name.append(consumeEscape())
            } else {
                break
            }
        }
        return String(name)
    }

    private mutating func consumeIdentLike() -> CSSToken.Kind {
        let name = consumeName()
        if peek() == "(" {
            index += 1
            return .function(name)
        }
        return .ident(name)
    }

    private mutating func consumeNumeric() -> CSSToken.Kind {
        var text = ""
        var isInteger = true
        func take() { if let c = peek() { text.unicodeScalars.append(c); index += 1 } }
        if peek() == "+" || peek() == "-" { take() }
        while Self.isDigit(peek()) { take() }
        if peek() == ".", Self.isDigit(peek(1)) {
            isInteger = false
            take()
            while Self.isDigit(peek()) { take() }
        }
        if peek() == "e" || peek() == "E" {
            if Self.isDigit(peek(1)) || ((peek(1) == "+" || peek(1) == "-") && Self.isDigit(peek(2))) {
                isInteger = false
                take()
                if peek() == "+" || peek() == "-" { take() }
                while Self.isDigit(peek()) { take() }
            }
        }
        let value = Double(text) ?? 0
        if Self.startsIdentifier(peek(), peek(1), peek(2)) {
            return .dimension(value, isInteger: isInteger, representation: text, unit: consumeName())
        }
        if peek() == "%" {
            index += 1
            return .percentage(value)
        }
        return .number(value, isInteger: isInteger, representation: text)
    }
}
