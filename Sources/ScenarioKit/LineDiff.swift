import BrowserRuntime
import WebRuntime

/// Unified diffs of text, line by line (Myers' algorithm, through the standard library's
/// `CollectionDifference`), as reviewers read them.
public enum LineDiff {
    /// The unified diff of `old` and `new` (empty when they are equal), with `context` lines
    /// around each change and `---`/`+++` headers naming the two sides.
    public static func unified(old: String, new: String, oldName: String, newName: String, context: Int = 3) -> String {
        let a = lines(old)
        let b = lines(new)
        guard a != b else { return "" }
        let difference = b.difference(from: a)
        var removed = Set<Int>()
        var inserted = Set<Int>()
        for change in difference {
            switch change {
            case let .remove(offset, _, _): removed.insert(offset)
            case let .insert(offset, _, _): inserted.insert(offset)
            }
        }
        // Walk both sides into one edit script: (kind, text, old line, new line).
        var script: [(kind: Character, text: String, old: Int, new: Int)] = []
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if i < a.count, removed.contains(i) {
                script.append(("-", a[i], i, j)); i += 1
            } else if j < b.count, inserted.contains(j) {
                script.append(("+", b[j], i, j)); j += 1
            } else {
                script.append((" ", i < a.count ? a[i] : "", i, j)); i += 1; j += 1
            }
        }
        var out = "--- \(oldName)\n+++ \(newName)\n"
        var index = 0
        while index < script.count {
            guard script[index].kind != " " else { index += 1; continue }
            var start = max(0, index - context)
            var end = index
            // Extend the hunk while changes are within 2 * context lines of each other.
            var last = index
            while end < script.count {
                if script[end].kind != " " { last = end }
                if end - last > 2 * context { break }
                end += 1
            }
            end = min(script.count, last + context + 1)
            if start < 0 { start = 0 }
            let hunk = script[start..<end]
            let oldCount = hunk.filter { $0.kind != "+" }.count
            let newCount = hunk.filter { $0.kind != "-" }.count
            let oldStart = (hunk.first?.old ?? 0) + (oldCount == 0 ? 0 : 1)
            let newStart = (hunk.first?.new ?? 0) + (newCount == 0 ? 0 : 1)
            out += "@@ -\(oldStart),\(oldCount) +\(newStart),\(newCount) @@\n"
            for line in hunk { out += "\(line.kind)\(line.text)\n" }
            index = end
        }
        return out
    }

    static func lines(_ text: String) -> [String] {
        var parts = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if parts.last == "" { parts.removeLast() }
        return parts
    }
}
