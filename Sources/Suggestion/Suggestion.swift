/// "Did you mean" for every place that refuses a word it does not know: an option, a command, a
/// suite, a scenario or manifest key.
public enum Suggestion {
    /// The known word closest to `word` by edit distance, when close enough to be a typo (at most
    /// two edits, or a third of the word's length for longer words); ties go to the first in
    /// sorted order, so the hint is the same on every run.
    public static func nearest(to word: String, in known: some Collection<String>) -> String? {
        let best = known.min { (editDistance($0, word), $0) < (editDistance($1, word), $1) }
        guard let best else { return nil }
        return editDistance(best, word) <= max(2, word.count / 3) ? best : nil
    }

    /// `; did you mean 'x'?` for the nearest known word, or nothing.
    public static func hint(for word: String, in known: some Collection<String>) -> String {
        nearest(to: word, in: known).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// Levenshtein distance between two words, in characters.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
