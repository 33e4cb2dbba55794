/// Reads the `An+B` microsyntax of CSS Syntax Level 3 §6.2 from tokens (`odd`, `even`, `3`, `n`,
/// `-n+2`, `2n + 1`, `2n- 1`, `+n`), leaving ``index`` after it. `2n+`, `+ n` and `2 n` are refused.
struct ANPlusB {
    let tokens: [CSSToken]
    var index: Int

    private func kind(_ offset: Int = 0) -> CSSToken.Kind? {
        index + offset < tokens.count ? tokens[index + offset].kind : nil
    }

    private mutating func skipWhitespace() {
        while kind() == .whitespace { index += 1 }
    }

    /// (A, B), or nil when the tokens are not An+B.
    mutating func parse() -> (Int, Int)? {
        guard let first = kind() else { return nil }
        switch first {
        case .ident(let name):
            let lower = name.lowercased()
            if lower == "odd" { index += 1; return (2, 1) }
            if lower == "even" { index += 1; return (2, 0) }
            if lower.hasPrefix("-") {
                index += 1
                return afterN(a: -1, rest: String(lower.dropFirst()))
            }
            index += 1
            return afterN(a: 1, rest: lower)
        case .delim("+"):
            // `+n`: the sign and the n with nothing between them.
            guard case .ident(let name) = kind(1), !name.hasPrefix("-") else { return nil }
            index += 2
            return afterN(a: 1, rest: name.lowercased())
        case .number(let value, true, _):
            index += 1
            return Int(exactly: value).map { (0, $0) }
        case .dimension(let value, true, _, let unit):
            guard let a = Int(exactly: value) else { return nil }
            index += 1
            return afterN(a: a, rest: unit.lowercased())
        default:
            return nil
        }
    }

    /// `rest` is what followed A: `n`, `n-`, or `n-<digits>`; then an optional B.
    private mutating func afterN(a: Int, rest: String) -> (Int, Int)? {
        guard rest.hasPrefix("n") else { return nil }
        let tail = rest.dropFirst()
        if tail.isEmpty {
            switch signedB() {
            case .absent: return (a, 0)
            case .value(let b): return (a, b)
            case .invalid: return nil
            }
        }
        if tail == "-" {
            skipWhitespace()
            guard case .number(let value, true, let text) = kind(), !text.hasPrefix("+"), !text.hasPrefix("-"),
                let b = Int(exactly: value) else { return nil }
            index += 1
            return (a, -b)
        }
        guard tail.hasPrefix("-"), tail.count > 1, tail.dropFirst().allSatisfy(\.isASCIIDigitCharacter),
            let b = Int(tail.dropFirst()) else { return nil }
        return (a, -b)
    }

    /// After `An`: nothing, a signed integer (`+1`), or `+`/`-` and a signless integer.
    private enum B { case absent, value(Int), invalid }

    private mutating func signedB() -> B {
        let saved = index
        skipWhitespace()
        switch kind() {
        case .number(let value, true, let text) where text.hasPrefix("+") || text.hasPrefix("-"):
            index += 1
            return Int(exactly: value).map(B.value) ?? .invalid
        case .delim(let sign) where sign == "+" || sign == "-":
            index += 1
            skipWhitespace()
            guard case .number(let value, true, let text) = kind(), !text.hasPrefix("+"), !text.hasPrefix("-"),
                let b = Int(exactly: value) else { return .invalid }
            index += 1
            return .value(sign == "-" ? -b : b)
        default:
            index = saved
            return .absent
        }
    }
}

extension Character {
    var isASCIIDigitCharacter: Bool { ("0"..."9").contains(self) }
}
