/// A compiled DNR `urlFilter`, matched with Chromium's semantics
/// (components/url_pattern_index/url_pattern.cc; cases in url_pattern_unittest.cc).
///
/// - `|` at the start or end anchors to the URL's start or end; elsewhere it is literal.
/// - `||` at the start anchors at the host's start or just after a `.` inside the host.
/// - `*` matches any run of characters.
/// - `^` matches one character that is not a letter, digit or one of `_ - . %`;
///   the pattern's final `^` may also match the end of the URL.
/// - Case-insensitive unless asked otherwise: the pattern is lowered once here and
///   URL bytes are lowered as they are compared.
struct URLFilterPattern: Sendable {
    enum LeftAnchor: Sendable { case none, boundary, subdomain }

    /// Marks `^` inside a segment (never a byte of a valid ASCII pattern).
    static let separatorMarker: UInt8 = 0

    let leftAnchor: LeftAnchor
    let rightAnchor: Bool
    /// The pattern split on `*` (empty segments kept at the ends only).
    let segments: [[UInt8]]
    let caseSensitive: Bool
    /// Chromium lets the final `^` match the end of the URL; WebKit's translation
    /// (`[^a-zA-Z0-9_.%-]`) does not. Off only to explain that divergence.
    var separatorMatchesEnd = true

    init(leftAnchor: LeftAnchor, rightAnchor: Bool, segments: [[UInt8]], caseSensitive: Bool) {
        self.leftAnchor = leftAnchor
        self.rightAnchor = rightAnchor
        self.segments = segments
        self.caseSensitive = caseSensitive
    }

    /// Compiles `filter`; assumes it passed validation (ASCII, not empty).
    init(_ filter: String, caseSensitive: Bool) {
        var body = Substring(filter)
        var left = LeftAnchor.none
        if body.hasPrefix("||") {
            left = .subdomain
            body = body.dropFirst(2)
        } else if body.hasPrefix("|") {
            left = .boundary
            body = body.dropFirst()
        }
        var right = false
        if body.hasSuffix("|") {
            right = true
            body = body.dropLast()
        }
        self.init(body: String(body), left: left, right: right, caseSensitive: caseSensitive)
    }

    /// Compiles a pattern body with its anchors given apart (as url_pattern.h's UrlPattern does).
    init(body: String, left: LeftAnchor, right: Bool, caseSensitive: Bool) {
        var bytes = Array(body.utf8)
        if !caseSensitive { bytes = bytes.map(Self.lower) }
        var parts: [[UInt8]] = [[]]
        for byte in bytes {
            if byte == UInt8(ascii: "*") {
                parts.append([])
            } else {
                parts[parts.count - 1].append(byte == UInt8(ascii: "^") ? Self.separatorMarker : byte)
            }
        }
        // Inner empty parts come from `**` and mean nothing more than one `*`.
        if parts.count > 2 {
            let inner = parts[1..<(parts.count - 1)].filter { !$0.isEmpty }
            parts = [parts[0]] + inner + [parts[parts.count - 1]]
        }
        self.init(leftAnchor: left, rightAnchor: right, segments: parts, caseSensitive: caseSensitive)
    }

    /// The literal host this pattern is tied to, for indexing: `||ads.example.com^`
    /// gives `ads.example.com`. Only returned when a match implies the request host
    /// equals it or is a subdomain of it (the host part is followed by a separator,
    /// `/` or `:`), so the index can never hide a match.
    var indexHost: String? {
        guard leftAnchor == .subdomain, let first = segments.first else { return nil }
        var host: [UInt8] = []
        for byte in first {
            if byte == Self.separatorMarker || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ":") {
                guard !host.isEmpty, host.last != UInt8(ascii: "."), host.first != UInt8(ascii: ".") else { return nil }
                return String(decoding: host, as: UTF8.self)
            }
            let isHostByte = (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
            guard isHostByte else { return nil }
            host.append(byte)
        }
        return nil
    }

    /// True when the pattern matches `url` whose host occupies `host`.
    func matches(_ url: UnsafeBufferPointer<UInt8>, host: Range<Int>) -> Bool {
        let count = segments.count
        if count == 1 {
            return matchSingle(segments[0], url, host: host)
        }
        // First segment: anchored, subdomain-anchored, or leftmost occurrence.
        let first = segments[0]
        let rest = segments[1...]
        switch leftAnchor {
        case .boundary:
            guard let end = matchAt(first, url, 0, isFinal: false) else { return false }
            return matchRest(rest, url, from: end)
        case .subdomain:
            var position = host.lowerBound
            while position <= host.upperBound {
                if position == host.lowerBound || url[position - 1] == UInt8(ascii: ".") {
                    if let end = matchAt(first, url, position, isFinal: false), matchRest(rest, url, from: end) {
                        return true
                    }
                }
                position += 1
            }
            return false
        case .none:
            guard let end = find(first, url, from: 0, isFinal: false) else { return false }
            return matchRest(rest, url, from: end)
        }
    }

    // MARK: - Segments

    /// A pattern without `*`: every anchor combination.
    private func matchSingle(_ segment: [UInt8], _ url: UnsafeBufferPointer<UInt8>, host: Range<Int>) -> Bool {
        let n = url.count
        switch leftAnchor {
        case .boundary:
            guard let end = matchAt(segment, url, 0, isFinal: true) else { return false }
            return !rightAnchor || end == n
        case .subdomain:
            var position = host.lowerBound
            while position <= host.upperBound {
                if position == host.lowerBound || url[position - 1] == UInt8(ascii: ".") {
                    if let end = matchAt(segment, url, position, isFinal: true), !rightAnchor || end == n {
                        return true
                    }
                }
                position += 1
            }
            return false
        case .none:
            if rightAnchor { return matchSuffix(segment, url, notBefore: 0) }
            return find(segment, url, from: 0, isFinal: true) != nil
        }
    }

    /// Middle segments at their leftmost occurrence (greedy is optimal for `*` globs),
    /// then the last one, which must end the URL when right-anchored.
    private func matchRest(_ rest: ArraySlice<[UInt8]>, _ url: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        var position = start
        let lastIndex = rest.endIndex - 1
        for index in rest.indices where index != lastIndex {
            guard let end = find(rest[index], url, from: position, isFinal: false) else { return false }
            position = end
        }
        let last = rest[lastIndex]
        if rightAnchor { return matchSuffix(last, url, notBefore: position) }
        return find(last, url, from: position, isFinal: true) != nil
    }

    /// The last segment ending exactly at the URL's end (a final `^` may stand for that end).
    private func matchSuffix(_ segment: [UInt8], _ url: UnsafeBufferPointer<UInt8>, notBefore: Int) -> Bool {
        let n = url.count
        let start = n - segment.count
        if start >= notBefore, matchAt(segment, url, start, isFinal: true) == n { return true }
        if segment.last == Self.separatorMarker && separatorMatchesEnd {
            let shorter = start + 1
            if shorter >= notBefore, matchAt(segment, url, shorter, isFinal: true) == n { return true }
        }
        return false
    }

    private func find(_ segment: [UInt8], _ url: UnsafeBufferPointer<UInt8>, from: Int, isFinal: Bool) -> Int? {
        var position = from
        let n = url.count
        while position <= n {
            if let end = matchAt(segment, url, position, isFinal: isFinal) { return end }
            position += 1
        }
        return nil
    }

    /// Matches `segment` at `position`; returns the end offset. When `isFinal`, a
    /// trailing `^` may match the end of the URL (Chromium: "This can also match the
    /// end of the URL"; url_pattern_unittest `^^a^^` on `http://ex.com/?a=`).
    @inline(__always)
    private func matchAt(_ segment: [UInt8], _ url: UnsafeBufferPointer<UInt8>, _ position: Int, isFinal: Bool) -> Int? {
        let n = url.count
        var i = position
        let last = segment.count - 1
        for (k, p) in segment.enumerated() {
            if i >= n {
                if p == Self.separatorMarker && k == last && isFinal && separatorMatchesEnd { return i }
                return nil
            }
            let c = url[i]
            if p == Self.separatorMarker {
                if !Self.isSeparator(c) { return nil }
            } else if (caseSensitive ? c : Self.lower(c)) != p {
                return nil
            }
            i += 1
        }
        return i
    }

    @inline(__always)
    static func lower(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    /// `^`: anything but a letter, digit, `_`, `-`, `.` or `%`.
    @inline(__always)
    static func isSeparator(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "%"):
            false
        default:
            true
        }
    }
}
