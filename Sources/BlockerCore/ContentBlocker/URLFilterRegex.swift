/// The regular-expression subset WebKit accepts in Content Blocker `url-filter`,
/// `if-top-url` and `if-frame-url` (WebCore/contentextensions/URLFilterParser.cpp),
/// parsed and matched by hand.
///
/// Accepted: ASCII literals, `.`, character sets `[...]` with ranges and `^`
/// negation, groups `(...)`, the quantifiers `?`, `*` and `+`, `^` as the first
/// term and `$` as the last. Refused, as WebKit refuses them: alternation `|`,
/// built-in classes (`\d`, `\w`, `\s`...), word boundaries, back-references,
/// counted repetition `{n,m}`, misplaced `^`/`$`, non-ASCII.
///
/// A hand-written backtracking matcher is used rather than NSRegularExpression,
/// which is slow on Linux; the subset has no constructs that need more.
public struct URLFilterRegex: Sendable, Hashable {
    indirect enum Atom: Sendable, Hashable {
        case byte(UInt8)
        case any
        /// 128-bit membership for ASCII; non-ASCII bytes never match a set.
        case set(low: UInt64, high: UInt64)
        case group([Term])
    }

    struct Term: Sendable, Hashable {
        let atom: Atom
        let min: Int
        /// `Int.max` for unbounded.
        let max: Int
    }

    /// The source text.
    public let source: String
    let terms: [Term]
    let anchoredStart: Bool
    let anchoredEnd: Bool
    let caseSensitive: Bool

    /// Parses `source`.
    /// - Throws: `URLFilterRegexError` naming what WebKit would refuse and where.
    public init(_ source: String, caseSensitive: Bool = false) throws {
        var parser = Parser(bytes: Array(source.utf8), source: source, caseSensitive: caseSensitive)
        let parsed = try parser.parse()
        self.source = source
        self.terms = parsed.terms
        self.anchoredStart = parsed.start
        self.anchoredEnd = parsed.end
        self.caseSensitive = caseSensitive
    }

    /// True when the expression matches somewhere in `text` (anchors permitting).
    public func matches(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { matches($0) }
    }

    /// Byte-buffer form of `matches(_:)`.
    func matches(_ input: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = input.count
        let accept: (Int) -> Bool = anchoredEnd ? { $0 == n } : { _ in true }
        if anchoredStart { return match(terms[...], input, 0, accept) }
        var start = 0
        while start <= n {
            if match(terms[...], input, start, accept) { return true }
            start += 1
        }
        return false
    }

    // MARK: - Backtracking

    private func match(_ terms: ArraySlice<Term>, _ input: UnsafeBufferPointer<UInt8>, _ position: Int,
                       _ accept: (Int) -> Bool) -> Bool {
        guard let term = terms.first else { return accept(position) }
        let rest = terms.dropFirst()
        if case .group = term.atom {
            // Greedy repetition of a group: one more occurrence first, then stop if enough.
            func repeatTerm(_ count: Int, _ at: Int) -> Bool {
                if count < term.max {
                    let more = matchAtom(term.atom, input, at) { next in
                        next != at && repeatTerm(count + 1, next)
                    }
                    if more { return true }
                }
                return count >= term.min && match(rest, input, at, accept)
            }
            return repeatTerm(0, position)
        }
        // A one-character atom: take the longest run, then give back one at a time.
        var run = 0
        while run < term.max, position + run < input.count, matchesByte(term.atom, input[position + run]) { run += 1 }
        if run < term.min { return false }
        var count = run
        while count >= term.min {
            if match(rest, input, position + count, accept) { return true }
            count -= 1
        }
        return false
    }

    @inline(__always)
    private func matchesByte(_ atom: Atom, _ byte: UInt8) -> Bool {
        switch atom {
        case .byte(let expected): (caseSensitive ? byte : URLFilterPattern.lower(byte)) == expected
        case .any: true
        case .set(let low, let high):
            byte < 128 && (byte < 64 ? (low >> UInt64(byte)) & 1 == 1 : (high >> UInt64(byte - 64)) & 1 == 1)
        case .group: false
        }
    }

    private func matchAtom(_ atom: Atom, _ input: UnsafeBufferPointer<UInt8>, _ position: Int,
                           _ next: (Int) -> Bool) -> Bool {
        switch atom {
        case .group(let inner):
            return match(inner[...], input, position, next)
        case .byte(let expected):
            guard position < input.count else { return false }
            let byte = caseSensitive ? input[position] : URLFilterPattern.lower(input[position])
            return byte == expected && next(position + 1)
        case .any:
            return position < input.count && next(position + 1)
        case .set(let low, let high):
            guard position < input.count else { return false }
            let byte = input[position]
            guard byte < 128 else { return false }
            let member = byte < 64 ? (low >> UInt64(byte)) & 1 == 1 : (high >> UInt64(byte - 64)) & 1 == 1
            return member && next(position + 1)
        }
    }
}
