/// The textual form duplicates are compared in, the same on the Swift and the JavaScript side
/// (`ADVRuleAssistance.normalized`): the selector trimmed, whitespace runs outside strings made
/// one space, and no space after `(` or `[`, before `)` or `]`, or around `>`, `+`, `~`, `,`
/// and `=` (and before `^=`, `$=`, `*=`, `|=`). Case, quotes and escapes stay as written, so
/// `.Ad` and `.ad`, or `[a=b]` and `[a="b"]`, are not called duplicates.
public enum SelectorText {
    /// The normalized text of `selector`.
    public static func normalized(_ selector: String) -> String {
        let chars = Array(SelectorSyntax.trimmed(selector))
        var out: [Character] = []
        var quote: Character?
        var pendingSpace = false
        let tight: Set<Character> = [">", "+", "~", ",", "="]
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if let q = quote {
                out.append(c)
                if c == "\\", i + 1 < chars.count { out.append(chars[i + 1]); i += 2; continue }
                if c == q { quote = nil }
                i += 1
                continue
            }
            if c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0C}" {
                pendingSpace = true
                i += 1
                continue
            }
            if pendingSpace {
                pendingSpace = false
                let before = out.last
                let operatorAhead = "^$*|".contains(c) && i + 1 < chars.count && chars[i + 1] == "="
                let dropped = before == nil || before == "(" || before == "[" || tight.contains(before ?? " ")
                    || c == ")" || c == "]" || tight.contains(c) || operatorAhead
                if !dropped { out.append(" ") }
            }
            out.append(c)
            if c == "\\", i + 1 < chars.count { out.append(chars[i + 1]); i += 2; continue }
            if c == "\"" || c == "'" { quote = c }
            i += 1
        }
        return String(out)
    }
}
