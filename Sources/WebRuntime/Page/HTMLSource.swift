import Foundation

/// A page's HTML split where the parser must stop to run a script, with line lookup.
///
/// Browsers run a classic `<script>` as soon as the parser reaches its end tag, with the rest of
/// the document not yet parsed. Feeding domino's incremental parser one chunk per `</script>`
/// reproduces that: after each chunk, exactly the script just closed is new in the document.
///
/// Offsets are UTF-8 byte offsets into ``text``: the scan works on the string's own bytes
/// (a long page costs one pass and no transcoding), and callers compare offsets with byte
/// lengths only.
struct HTMLSource {
    /// The HTML with newlines normalized as the HTML parser's input stream does (CRLF and CR
    /// become LF, HTML 13.2.3.5), so offsets line up with what domino sees.
    let text: String
    /// Chunk boundaries: each chunk ends just after a `</script ...>` end tag (the last one at
    /// the end of the text), with the byte offset where that end tag starts.
    let chunks: [(text: String, scriptEnd: Int?)]
    private let lineStarts: [Int]

    init(_ html: String) {
        var normalized = html
        if normalized.utf8.contains(0x0D) {
            normalized = normalized.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        }
        text = normalized
        var starts = [0]
        var result: [(String, Int?)] = []
        var scanned = normalized
        scanned.withUTF8 { bytes in
            for index in 0..<bytes.count where bytes[index] == 0x0A { starts.append(index + 1) }
            let pattern = Array("</script".utf8)
            var chunkStart = 0
            var index = 0
            while index + pattern.count <= bytes.count {
                if bytes[index] == 0x3C, Self.matchesIgnoringCase(bytes, at: index, pattern) {
                    // An end tag named exactly "script": the next character ends the name.
                    let after = index + pattern.count
                    let next = after < bytes.count ? bytes[after] : 0x3E
                    if next == 0x3E || next == 0x2F || next == 0x20 || next == 0x09 || next == 0x0A || next == 0x0C {
                        var close = after
                        while close < bytes.count, bytes[close] != 0x3E { close += 1 }
                        let end = min(close + 1, bytes.count)
                        result.append((String(decoding: UnsafeBufferPointer(rebasing: bytes[chunkStart..<end]), as: UTF8.self), index))
                        chunkStart = end
                        index = end
                        continue
                    }
                }
                index += 1
            }
            if chunkStart < bytes.count {
                result.append((String(decoding: UnsafeBufferPointer(rebasing: bytes[chunkStart..<bytes.count]), as: UTF8.self), nil))
            }
        }
        lineStarts = starts
        chunks = result
    }

    /// How much of a document the network hands the parser at a time, in bytes: tasks due
    /// meanwhile run between slices when the page loads incrementally (see
    /// ``WebSession/open(html:url:contentScripts:incremental:beforeLoad:afterParse:)``).
    static let sliceLength = 4096

    /// `chunk` cut into slices of at most ``sliceLength`` bytes (never inside a character).
    static func slices(of chunk: String) -> [String] {
        guard chunk.utf8.count > sliceLength else { return [chunk] }
        var copy = chunk
        return copy.withUTF8 { bytes in
            var result: [String] = []
            var start = 0
            while start < bytes.count {
                var end = min(start + sliceLength, bytes.count)
                // Back up over UTF-8 continuation bytes (10xxxxxx) to a character's start.
                while end < bytes.count, end > start + 1, bytes[end] & 0xC0 == 0x80 { end -= 1 }
                result.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
                start = end
            }
            return result
        }
    }

    /// The 1-based line holding byte offset `offset`.
    func line(at offset: Int) -> Int {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return low + 1
    }

    private static func matchesIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, _ pattern: [UInt8]) -> Bool {
        for (offset, expected) in pattern.enumerated() {
            var byte = bytes[index + offset]
            if byte >= 0x41, byte <= 0x5A { byte += 0x20 }
            if byte != expected { return false }
        }
        return true
    }
}
