/// The two browsers' placeholder and `__MSG_` algorithms, written from their behaviour. They
/// differ in the corners (`$0`, `$x`, `$$$`, an undefined name), so each is kept as it is.
extension Localization {
    /// Characters of a message or placeholder name (both browsers: `[A-Za-z0-9_@]`).
    static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "@")
    }

    /// Safari stops a replacement that keeps producing what it replaces (a placeholder whose
    /// content names itself) after this many rounds; Safari itself would not finish.
    static let maximumRounds = 100

    // MARK: - Safari

    /// Named placeholders (WebKit's `_stringByReplacingNamedPlaceholdersInString`,
    /// _WKWebExtensionLocalization.mm): the first `$name$` not preceded by `$` is looked up
    /// (lowercased) and every occurrence of it, in any case, becomes its `content`, or "" when
    /// the message defines no such placeholder; then the search starts again from the top.
    /// WebKit's C++ port (WebExtensionLocalization.cpp) also drops the character before a
    /// placeholder that is not at the start or after a space; this follows the Cocoa code that
    /// Safari ships on macOS.
    static func safariNamed(_ text: String, _ placeholders: [String: String]) -> String {
        var scalars = Array(text.unicodeScalars)
        for _ in 0..<maximumRounds {
            guard let match = firstSafariPlaceholder(in: scalars, named: true) else { break }
            let name = String(String.UnicodeScalarView(scalars[(match.lowerBound + 1)..<(match.upperBound - 1)])).lowercased()
            let token = Array(scalars[match])
            scalars = replacingAll(token, in: scalars, with: Array((placeholders[name] ?? "").unicodeScalars), caseInsensitive: true)
        }
        return String(String.UnicodeScalarView(scalars))
    }

    /// Positional placeholders (`_stringByReplacingPositionalPlaceholdersInString`): the first
    /// `$N` (one digit) not preceded by `$` takes substitution N (1-based; `$0` or one past the
    /// end gives ""), every occurrence of that `$N` is replaced, and the search starts again.
    static func safariPositional(_ text: String, _ substitutions: [String]) -> String {
        var scalars = Array(text.unicodeScalars)
        for _ in 0..<maximumRounds {
            guard let match = firstSafariPlaceholder(in: scalars, named: false) else { break }
            let position = Int(scalars[match.lowerBound + 1].value) - Int(("0" as Unicode.Scalar).value)
            let value = position > 0 && position <= substitutions.count ? substitutions[position - 1] : ""
            scalars = replacingAll(Array(scalars[match]), in: scalars, with: Array(value.unicodeScalars), caseInsensitive: false)
        }
        return String(String.UnicodeScalarView(scalars))
    }

    /// Where the first `$name$` (or `$N`) whose `$` does not follow another `$` lies:
    /// the regular expressions `(?:[^$]|^)(\$([A-Za-z0-9_@]+)\$)` and `(?:[^$]|^)(\$([0-9]))`.
    static func firstSafariPlaceholder(in scalars: [Unicode.Scalar], named: Bool) -> Range<Int>? {
        var index = 0
        while index < scalars.count {
            defer { index += 1 }
            guard scalars[index] == "$", index == 0 || scalars[index - 1] != "$" else { continue }
            if !named {
                if index + 1 < scalars.count, ("0"..."9").contains(scalars[index + 1]) { return index..<(index + 2) }
                continue
            }
            var end = index + 1
            while end < scalars.count, isNameCharacter(scalars[end]) { end += 1 }
            if end > index + 1, end < scalars.count, scalars[end] == "$" { return index..<(end + 1) }
        }
        return nil
    }

    /// `text` with every occurrence of `token`, left to right and not overlapping, replaced by
    /// `replacement` (NSString's `stringByReplacingOccurrencesOfString`).
    static func replacingAll(_ token: [Unicode.Scalar], in text: [Unicode.Scalar], with replacement: [Unicode.Scalar], caseInsensitive: Bool) -> [Unicode.Scalar] {
        guard !token.isEmpty, token.count <= text.count else { return text }
        func same(_ a: Unicode.Scalar, _ b: Unicode.Scalar) -> Bool {
            guard caseInsensitive, a.isASCII, b.isASCII else { return a == b }
            return String(a).lowercased() == String(b).lowercased()
        }
        var out: [Unicode.Scalar] = []
        out.reserveCapacity(text.count)
        var index = 0
        while index < text.count {
            if index + token.count <= text.count, (0..<token.count).allSatisfy({ same(text[index + $0], token[$0]) }) {
                out += replacement
                index += token.count
            } else {
                out.append(text[index])
                index += 1
            }
        }
        return out
    }

    /// `__MSG_name__` references in a manifest string or stylesheet, Safari's way
    /// (`localizedStringForString`): the first reference (the longest name that a `__` follows,
    /// as the greedy `__MSG_([A-Za-z0-9_@]+)__` finds it) becomes its message, every occurrence
    /// of it is replaced, and the search starts again; an unknown name becomes "".
    func safariLocalize(_ text: String, use: Use) -> String {
        guard text.contains("__MSG_") else { return text }
        var scalars = Array(text.unicodeScalars)
        let prefix = Array("__MSG_".unicodeScalars)
        for _ in 0..<Self.maximumRounds {
            guard let (range, name) = Self.firstSafariReference(in: scalars, prefix: prefix) else { break }
            let value = safariMessage(name, substitutions: [], use: use)
            scalars = Self.replacingAll(Array(scalars[range]), in: scalars, with: Array(value.unicodeScalars), caseInsensitive: false)
        }
        return String(String.UnicodeScalarView(scalars))
    }

    static func firstSafariReference(in scalars: [Unicode.Scalar], prefix: [Unicode.Scalar]) -> (Range<Int>, String)? {
        var start = 0
        while start + prefix.count < scalars.count {
            defer { start += 1 }
            guard Array(scalars[start..<(start + prefix.count)]) == prefix else { continue }
            let nameStart = start + prefix.count
            var runEnd = nameStart
            while runEnd < scalars.count, isNameCharacter(scalars[runEnd]) { runEnd += 1 }
            // The last `__` inside the run that leaves a name of at least one character.
            var end = runEnd - 2
            while end > nameStart, !(scalars[end] == "_" && scalars[end + 1] == "_") { end -= 1 }
            if end > nameStart {
                return (start..<(end + 2), String(String.UnicodeScalarView(scalars[nameStart..<end])))
            }
        }
        return nil
    }

    // MARK: - Chrome

    /// Chromium's `MessageBundle::ReplaceVariables` (extensions/common/message_bundle.cc): finds
    /// `begin`, then the next `end`; a valid name between them is replaced by `lookup`'s value,
    /// an invalid one is skipped, and an unknown one stops the replacement there. Used with
    /// `$`/`$` for named placeholders and `__MSG_`/`__` for the manifest and CSS.
    /// - Returns: the text as far as it was replaced, and the first unknown name, if any.
    static func chromeReplaceVariables(_ text: String, begin: String, end: String, lookup: (String) -> String?) -> (text: String, undefined: String?) {
        var scalars = Array(text.unicodeScalars)
        let beginScalars = Array(begin.unicodeScalars), endScalars = Array(end.unicodeScalars)
        func find(_ needle: [Unicode.Scalar], from: Int) -> Int? {
            guard from <= scalars.count - needle.count else { return nil }
            var index = from
            while index <= scalars.count - needle.count {
                if scalars[index] == needle[0], Array(scalars[index..<(index + needle.count)]) == needle { return index }
                index += 1
            }
            return nil
        }
        var position = 0
        while let found = find(beginScalars, from: position) {
            position = found + beginScalars.count
            guard position < scalars.count, let close = find(endScalars, from: position) else { break }
            let name = String(String.UnicodeScalarView(scalars[position..<close]))
            guard !name.isEmpty, name.unicodeScalars.allSatisfy(isNameCharacter) else { continue }
            guard let value = lookup(name) else { return (String(String.UnicodeScalarView(scalars)), name) }
            let replacement = Array(value.unicodeScalars)
            scalars.replaceSubrange(found..<(close + endScalars.count), with: replacement)
            position = found + replacement.count
        }
        return (String(String.UnicodeScalarView(scalars)), nil)
    }

    /// Chromium's `base::ReplaceStringPlaceholders` (base/strings/string_util_impl_helpers.h),
    /// which getMessage applies to every message: `$1`..`$9` become the substitutions ("" past
    /// the end), a run of n `$` becomes n-1 `$`, a `$` before any other character is dropped
    /// with that character, and a lone `$` at the end is dropped.
    static func chromePositional(_ text: String, _ substitutions: [String]) -> String {
        guard text.contains("$") else { return text }
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            guard scalar == "$" else { out.append(scalar); continue }
            guard index < scalars.count else { break }
            let next = scalars[index]
            if next == "$" {
                while index < scalars.count, scalars[index] == "$" { out.append("$"); index += 1 }
            } else if ("1"..."9").contains(next) {
                let position = Int(next.value - ("1" as Unicode.Scalar).value)
                if position < substitutions.count { out.append(contentsOf: substitutions[position].unicodeScalars) }
                index += 1
            } else {
                index += 1
            }
        }
        return String(out)
    }
}
