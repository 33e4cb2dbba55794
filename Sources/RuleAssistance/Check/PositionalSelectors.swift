/// Whether a selector picks elements by position rather than by what they are.
///
/// - `nth-chain`: two or more `:nth-child()`/`:nth-of-type()`/`:nth-last-*()` in the selector
///   (the picker's fallback chains, `div:nth-of-type(2) > div:nth-of-type(5)`);
/// - `fixed-position`: one of them naming a single position (An+B with A = 0, as in
///   `:nth-of-type(3)`); patterns such as `:nth-child(2n+1)` pass;
/// - `child-chain`: three or more `>` combinators in a row (`body > div > div > span`).
/// `:first-child` and its relatives are not counted: they are usually meant.
public enum PositionalSelectors {
    /// The reason code and its explanation, or nil.
    public static func reason(_ list: SelectorList) -> (code: String, explanation: String)? {
        var nth: [(a: Int, b: Int, name: String)] = []
        collect(list, into: &nth)
        if nth.count >= 2 {
            return ("nth-chain", "it chains \(nth.count) position conditions (\(nth.map(\.name).joined(separator: ", ")))")
        }
        if let fixed = nth.first(where: { $0.a == 0 }) {
            return ("fixed-position", "'\(fixed.name)' picks one position among its siblings")
        }
        for selector in list.selectors {
            var run = 0, longest = 0
            for combinator in selector.combinators {
                run = combinator == .child ? run + 1 : 0
                longest = max(longest, run)
            }
            if longest >= 3 { return ("child-chain", "it follows \(longest) parent > child steps in a row") }
        }
        return nil
    }

    private static func collect(_ list: SelectorList, into nth: inout [(a: Int, b: Int, name: String)]) {
        for selector in list.selectors {
            for compound in selector.compounds {
                for case .pseudoClass(let pseudo) in compound.simples {
                    switch pseudo {
                    case .nth(let kind, let a, let b, let of):
                        nth.append((a, b, ":\(kind.rawValue)(\(Self.text(a: a, b: b)))"))
                        if let of { collect(of, into: &nth) }
                    case .not(let inner), .is(let inner), .where(let inner), .has(let inner):
                        collect(inner, into: &nth)
                    default: break
                    }
                }
            }
        }
    }

    /// An+B as CSS Syntax §6.2.2 serializes it: `3`, `2n+1`, `-n+3`, `n`.
    static func text(a: Int, b: Int) -> String {
        if a == 0 { return "\(b)" }
        let coefficient = a == 1 ? "" : a == -1 ? "-" : "\(a)"
        if b == 0 { return coefficient + "n" }
        return coefficient + "n" + (b > 0 ? "+\(b)" : "\(b)")
    }
}
