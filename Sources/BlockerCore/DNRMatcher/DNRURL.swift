/// A request URL in the form DNR matches against: scheme and host lowercased, an
/// empty path written as `/`, IDN hosts in Punycode and other non-ASCII bytes
/// percent-encoded (the IDL's note on urlFilter: "matched against a url where the
/// host is encoded in the punycode format ... and any other non-ascii characters
/// are url encoded in utf-8"). This is the subset of GURL canonicalization that
/// changes what a pattern sees; it is not a full URL parser.
public struct DNRURL: Sendable, Hashable, CustomStringConvertible {
    /// The canonical bytes.
    public let bytes: [UInt8]
    /// Byte range of the host in `bytes`.
    public let hostRange: Range<Int>
    /// Length of the scheme (before `:`).
    let schemeLength: Int

    /// Parses `string`; nil when it has no `scheme://host`.
    public init?(_ string: String) {
        let input = Array(string.utf8)
        if let fast = Self.canonicalLayout(input) {
            // Already canonical (the common case: browsers hand over canonical URLs).
            self.bytes = input
            self.hostRange = fast.host
            self.schemeLength = fast.scheme
            return
        }
        guard let parsed = Self.canonicalize(input) else { return nil }
        self.bytes = parsed.bytes
        self.hostRange = parsed.host
        self.schemeLength = parsed.scheme
    }

    /// Scheme length and host range when `input` needs no change: ASCII, lowercase
    /// scheme and host, a path after the authority. nil means "take the slow path".
    private static func canonicalLayout(_ input: [UInt8]) -> (scheme: Int, host: Range<Int>)? {
        var index = 0
        let count = input.count
        while index < count {
            let byte = input[index]
            if byte == UInt8(ascii: ":") { break }
            let ok = (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            if !ok { return nil }
            index += 1
        }
        let scheme = index
        guard scheme > 0, index + 2 < count, input[index + 1] == UInt8(ascii: "/"), input[index + 2] == UInt8(ascii: "/") else { return nil }
        index += 3
        let hostStart = index
        while index < count {
            let byte = input[index]
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: ":") { break }
            let ok = (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
            if !ok { return nil }
            index += 1
        }
        let hostEnd = index
        guard hostEnd > hostStart else { return nil }
        if index < count, input[index] == UInt8(ascii: ":") {
            index += 1
            while index < count, input[index] >= UInt8(ascii: "0"), input[index] <= UInt8(ascii: "9") { index += 1 }
        }
        guard index < count, input[index] == UInt8(ascii: "/") else { return nil }
        while index < count {
            if input[index] >= 0x80 { return nil }
            index += 1
        }
        return (scheme, hostStart..<hostEnd)
    }

    /// The general path: lowercase scheme and host, Punycode, `/` path, percent-encoding.
    private static func canonicalize(_ input: [UInt8]) -> (bytes: [UInt8], host: Range<Int>, scheme: Int)? {
        guard let colon = input.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return nil }
        for byte in input[..<colon] {
            let ok = (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            if !ok { return nil }
        }
        var out = input[..<colon].map(URLFilterPattern.lower)
        out.append(UInt8(ascii: ":"))
        var index = colon + 1
        guard index + 1 < input.count, input[index] == UInt8(ascii: "/"), input[index + 1] == UInt8(ascii: "/") else {
            return nil
        }
        out += [UInt8(ascii: "/"), UInt8(ascii: "/")]
        index += 2
        // Authority runs to the first `/`, `?` or `#`.
        var authorityEnd = index
        while authorityEnd < input.count, !"/?#".utf8.contains(input[authorityEnd]) { authorityEnd += 1 }
        var hostStart = index
        if let at = input[index..<authorityEnd].lastIndex(of: UInt8(ascii: "@")) {
            out += input[index...at]
            hostStart = at + 1
        }
        var hostEnd = hostStart
        if hostStart < authorityEnd, input[hostStart] == UInt8(ascii: "[") {
            hostEnd = (input[hostStart..<authorityEnd].firstIndex(of: UInt8(ascii: "]")) ?? (authorityEnd - 1)) + 1
        } else {
            hostEnd = input[hostStart..<authorityEnd].firstIndex(of: UInt8(ascii: ":")) ?? authorityEnd
        }
        guard hostEnd > hostStart else { return nil }
        let hostText = String(decoding: input[hostStart..<hostEnd], as: UTF8.self)
        let host = canonicalHost(hostText)
        let hostOffset = out.count
        out += host
        let hostRange = hostOffset..<out.count
        out += input[hostEnd..<authorityEnd]
        if authorityEnd == input.count || input[authorityEnd] != UInt8(ascii: "/") {
            out.append(UInt8(ascii: "/"))
        }
        for byte in input[authorityEnd...] {
            if byte < 0x80 {
                out.append(byte)
            } else {
                out += Array("%\(String(byte, radix: 16, uppercase: true))".utf8)
            }
        }
        return (out, hostRange, colon)
    }

    /// The URL text.
    public var string: String { String(decoding: bytes, as: UTF8.self) }
    /// `string`.
    public var description: String { string }
    /// The host (lowercase, Punycode).
    public var host: String { String(decoding: bytes[hostRange], as: UTF8.self) }
    /// The scheme (lowercase).
    public var scheme: String { String(decoding: bytes[..<schemeLength], as: UTF8.self) }
    /// `scheme://host[:port]`.
    public var origin: String {
        let end = bytes[hostRange.upperBound...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.count
        return String(decoding: bytes[..<end], as: UTF8.self)
    }
    /// True for http and https (DNR request methods only apply to these).
    var isHTTPFamily: Bool {
        (schemeLength == 4 && bytes.starts(with: "http".utf8)) || (schemeLength == 5 && bytes.starts(with: "https".utf8))
    }
    /// True for http and ftp, the schemes Chromium's upgradeScheme rewrites.
    var isUpgradeable: Bool {
        (schemeLength == 4 && bytes.starts(with: "http".utf8)) || (schemeLength == 3 && bytes.starts(with: "ftp".utf8))
    }

    /// Lowercase ASCII; Unicode labels to Punycode; one trailing dot is kept (GURL keeps it).
    private static func canonicalHost(_ host: String) -> [UInt8] {
        if host.utf8.allSatisfy({ $0 < 0x80 }) { return host.utf8.map(URLFilterPattern.lower) }
        let labels = host.lowercased().split(separator: ".", omittingEmptySubsequences: false).map { label -> String in
            if label.unicodeScalars.allSatisfy(\.isASCII) { return String(label) }
            return Punycode.encode(String(label)).map { "xn--" + $0 } ?? String(label)
        }
        return Array(labels.joined(separator: ".").utf8)
    }
}
