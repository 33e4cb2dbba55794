import Foundation

/// Hostname normalization, validation and label-boundary comparison, shared by
/// ADV's source blocks, personal filters and the DNR matcher.
///
/// Policy (see Sources/BlockerCore/README.md):
/// - Input is a bare hostname: no scheme, user info, port, path, query,
///   fragment, whitespace or wildcard. Subdomains are always covered by the
///   blocking rules, so `*.` is never needed.
/// - Case is folded, Unicode labels are NFC-normalized, lowercased and converted
///   to Punycode (`xn--`), IDNA full stops (U+3002, U+FF0E, U+FF61) count as dots,
///   and one trailing dot (the DNS root) is removed.
/// - IP literals (IPv4 dotted quads, bracketed IPv6, or any name whose last label
///   is all digits) are refused: DNR domain lists match on label boundaries, which
///   has no meaning for addresses, and ad sources are named by host.
/// - A bare public suffix (every single label such as `com` or `localhost`, and
///   the multi-label registries listed in `PublicSuffixes`, such as `co.uk`) is
///   refused: blocking it would block a whole registry.
public enum Hostname {
    /// Longest hostname DNS allows in presentation form (RFC 1035 2.3.4 without the root dot).
    static let maximumLength = 253
    /// Longest DNS label (RFC 1035 2.3.4).
    static let maximumLabelLength = 63

    /// Lowercases, converts IDNA (Unicode labels) to punycode "xn--", strips one trailing dot, validates.
    /// - Throws: `HostnameError` naming the input and the reason it is not a blockable hostname.
    public static func normalize(_ input: String) throws -> String {
        func fail(_ reason: String) -> HostnameError { HostnameError(input: input, reason: reason) }
        if input.isEmpty { throw fail("is empty") }
        if input.contains("://") || input.hasPrefix("//") {
            throw fail("contains a scheme; enter only the hostname, e.g. 'ads.example.com'")
        }
        if input.unicodeScalars.contains(where: { $0.properties.isWhitespace }) { throw fail("contains whitespace") }
        if input.contains("*") { throw fail("contains a wildcard '*'; subdomains are always included, enter the parent hostname") }
        if input.contains("@") { throw fail("contains user info ('@'); enter only the hostname") }
        if input.hasPrefix("[") || input.filter({ $0 == ":" }).count > 1 {
            throw fail("is an ip address literal; only hostnames are supported")
        }
        if input.contains("/") { throw fail("contains a path; enter only the hostname") }
        if input.contains("?") || input.contains("#") { throw fail("contains a query or fragment; enter only the hostname") }
        if input.contains(":") { throw fail("contains a port; enter only the hostname") }

        var text = input.precomposedStringWithCanonicalMapping.lowercased()
        for fullStop in ["\u{3002}", "\u{FF0E}", "\u{FF61}"] {
            text = text.replacingOccurrences(of: fullStop, with: ".")
        }
        if text.hasSuffix(".") { text.removeLast() }
        if text.isEmpty { throw fail("is empty") }

        var labels: [String] = []
        for label in text.split(separator: ".", omittingEmptySubsequences: false) {
            labels.append(try normalizeLabel(String(label), fail: fail))
        }
        let host = labels.joined(separator: ".")
        if host.utf8.count > maximumLength { throw fail("is longer than \(maximumLength) characters") }
        if let last = labels.last, last.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            throw fail("is an ip address literal; only hostnames are supported")
        }
        if PublicSuffixes.isPublicSuffix(host) {
            throw fail("is a public suffix; enter a registrable domain or a subdomain, e.g. 'example.\(host)'")
        }
        return host
    }

    /// True when `host` equals `parent` or is a subdomain of it on a label boundary (both already normalized).
    public static func isSameOrSubdomain(_ host: String, of parent: String) -> Bool {
        isSameOrSubdomain(host.utf8, of: parent.utf8)
    }

    /// Byte-level form of `isSameOrSubdomain(_:of:)` used on the matcher's hot path.
    static func isSameOrSubdomain<H: BidirectionalCollection, P: Collection>(_ host: H, of parent: P) -> Bool
    where H.Element == UInt8, P.Element == UInt8 {
        let hostCount = host.count
        let parentCount = parent.count
        if parentCount == 0 || hostCount < parentCount { return false }
        // Compare the tail of `host` with `parent`, then require a dot before it.
        let start = host.index(host.startIndex, offsetBy: hostCount - parentCount)
        guard host[start...].elementsEqual(parent) else { return false }
        if hostCount == parentCount { return true }
        return host[host.index(before: start)] == UInt8(ascii: ".")
    }

    /// The registrable domain ("eTLD+1") of a normalized host, by the embedded public-suffix subset.
    ///
    /// IP addresses and single-label hosts are their own registrable domain, as in
    /// Chromium's `net::registry_controlled_domains` with `INCLUDE_PRIVATE_REGISTRIES`
    /// off and unknown registries allowed.
    public static func registrableDomain(_ host: String) -> String {
        if host.contains(":") || isIPv4Literal(host) || !host.contains(".") { return host }
        let suffix = PublicSuffixes.suffix(of: host)
        if suffix.count == host.count { return host }
        // One label more than the suffix.
        let beforeSuffix = host[..<host.index(before: suffix.startIndex)]
        if let dot = beforeSuffix.lastIndex(of: ".") {
            return String(host[host.index(after: dot)...])
        }
        return host
    }

    /// True for a dotted-quad IPv4 address such as `192.0.2.1`.
    public static func isIPv4Literal(_ host: String) -> Bool {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber)
                && (Int(part) ?? 256) <= 255
        }
    }

    // MARK: - Labels

    private static func normalizeLabel(_ label: String, fail: (String) -> HostnameError) throws -> String {
        if label.isEmpty { throw fail("has an empty label; check for doubled or leading dots") }
        let ascii: String
        if label.unicodeScalars.allSatisfy(\.isASCII) {
            ascii = label
            if label.hasPrefix("xn--") {
                // An A-label must decode to something that is not plain ASCII (RFC 5890 2.3.2.1).
                guard let decoded = Punycode.decode(String(label.dropFirst(4))), !decoded.isEmpty,
                    !decoded.unicodeScalars.allSatisfy(\.isASCII)
                else { throw fail("label '\(label)' is not valid punycode") }
            }
        } else {
            // IDNA: every scalar must be a letter, mark or number; symbols and
            // punctuation are disallowed by UTS #46. This is a documented subset
            // of UTS #46 (no compatibility mapping beyond NFC + lowercase).
            for scalar in label.unicodeScalars where !scalar.isASCII {
                switch scalar.properties.generalCategory {
                case .lowercaseLetter, .uppercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                    .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
                    continue
                default:
                    throw fail("contains the character '\(scalar)', which hostnames cannot contain")
                }
            }
            guard let encoded = Punycode.encode(label) else { throw fail("label '\(label)' cannot be encoded") }
            ascii = "xn--" + encoded
        }
        if ascii.utf8.count > maximumLabelLength {
            throw fail("label '\(label)' is longer than \(maximumLabelLength) characters")
        }
        if ascii.hasPrefix("-") || ascii.hasSuffix("-") {
            throw fail("label '\(label)' starts or ends with a hyphen")
        }
        // Underscore is not LDH but real ad hosts use it and browsers' URL parsers accept it.
        for byte in ascii.utf8 {
            let allowed = (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            if !allowed {
                throw fail("contains the character '\(Character(Unicode.Scalar(byte)))', which hostnames cannot contain")
            }
        }
        return ascii
    }
}
