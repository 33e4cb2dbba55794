import Foundation

/// A page's HTML split where the parser must stop to run a script, with line lookup.
///
/// Browsers run a classic `<script>` as soon as the parser reaches its end tag, with the rest of
/// the document not yet parsed. Feeding domino's incremental parser one chunk per `</script>`
/// reproduces that: after each chunk, exactly the script just closed is new in the document.
struct HTMLSource {
    /// The HTML with newlines normalized as the HTML parser's input stream does (CRLF and CR
    /// become LF, HTML 13.2.3.5), so offsets line up with what domino sees.
    let text: String
    /// Chunk boundaries: each chunk ends just after a `</script ...>` end tag (the last one at
    /// the end of the text), with the UTF-16 offset where that end tag starts.
    let chunks: [(text: String, scriptEnd: Int?)]
    private let lineStarts: [Int]

    init(_ html: String) {
        var normalized = html
        if normalized.contains("\r") {
            normalized = normalized.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        }
        text = normalized
        let units = Array(normalized.utf16)
        var starts = [0]
        for (index, unit) in units.enumerated() where unit == 0x0A { starts.append(index + 1) }
        lineStarts = starts

        var result: [(String, Int?)] = []
        var chunkStart = 0
        var index = 0
        let pattern = Array("</script".utf16)
        while index + pattern.count <= units.count {
            if units[index] == 0x3C, Self.matchesIgnoringCase(units, at: index, pattern) {
                // An end tag named exactly "script": the next character ends the name.
                let after = index + pattern.count
                let next = after < units.count ? units[after] : 0x3E
                if next == 0x3E || next == 0x2F || next == 0x20 || next == 0x09 || next == 0x0A || next == 0x0C {
                    var close = after
                    while close < units.count, units[close] != 0x3E { close += 1 }
                    let end = min(close + 1, units.count)
                    result.append((String(decoding: units[chunkStart..<end], as: UTF16.self), index))
                    chunkStart = end
                    index = end
                    continue
                }
            }
            index += 1
        }
        if chunkStart < units.count {
            result.append((String(decoding: units[chunkStart..<units.count], as: UTF16.self), nil))
        }
        chunks = result
    }

    /// How much of a document the network hands the parser at a time, in UTF-16 units: tasks
    /// due meanwhile run between slices when the page loads incrementally (see
    /// ``WebSession/open(html:url:contentScripts:incremental:beforeLoad:afterParse:)``).
    static let sliceLength = 4096

    /// `chunk` cut into slices of at most ``sliceLength`` units (never inside a surrogate pair).
    static func slices(of chunk: String) -> [String] {
        let units = Array(chunk.utf16)
        guard units.count > sliceLength else { return [chunk] }
        var result: [String] = []
        var start = 0
        while start < units.count {
            var end = min(start + sliceLength, units.count)
            if end < units.count, UTF16.isLeadSurrogate(units[end - 1]) { end -= 1 }
            result.append(String(decoding: units[start..<end], as: UTF16.self))
            start = end
        }
        return result
    }

    /// The 1-based line holding UTF-16 offset `offset`.
    func line(at offset: Int) -> Int {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return low + 1
    }

    private static func matchesIgnoringCase(_ units: [UInt16], at index: Int, _ pattern: [UInt16]) -> Bool {
        for (offset, expected) in pattern.enumerated() {
            var unit = units[index + offset]
            if unit >= 0x41, unit <= 0x5A { unit += 0x20 }
            if unit != expected { return false }
        }
        return true
    }
}
