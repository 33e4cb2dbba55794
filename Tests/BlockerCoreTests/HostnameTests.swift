import Testing
@testable import BlockerCore

/// Normalization cases: plain ASCII, case folding, trailing dot, IDNA.
/// IDNA expectations are the ones published by the registries/RFCs cited per row.
@Test(arguments: [
    ("Ads.Example.COM", "ads.example.com"),
    ("example.com.", "example.com"),
    ("doubleclick.net", "doubleclick.net"),
    ("ad_server.example.net", "ad_server.example.net"),
    // RFC 3492 / IDNA worked example used widely: "bücher" -> "bcher-kva".
    ("bücher.example", "xn--bcher-kva.example"),
    // Upper-case Unicode folds before encoding (UTS #46 mapping step).
    ("BÜCHER.example", "xn--bcher-kva.example"),
    // "münchen" -> "mnchen-3ya" (the DENIC example).
    ("münchen.de", "xn--mnchen-3ya.de"),
    // IDNA ideographic full stop U+3002 separates labels.
    ("ads\u{3002}example\u{3002}com", "ads.example.com"),
    ("xn--bcher-kva.example", "xn--bcher-kva.example"),
    ("ads.example.co.uk", "ads.example.co.uk"),
    ("example.co.uk", "example.co.uk"),
])
func normalizes(input: String, expected: String) throws {
    #expect(try Hostname.normalize(input) == expected)
}

/// Every refused form names the input and a reason containing the listed words.
@Test(arguments: [
    ("", "empty"),
    ("https://ads.example.com", "scheme"),
    ("//ads.example.com", "scheme"),
    ("ads.example.com/path", "path"),
    ("ads.example.com:8080", "port"),
    ("*.example.com", "wildcard"),
    ("ads .example.com", "whitespace"),
    ("user@example.com", "user info"),
    ("192.0.2.1", "ip address"),
    ("[2001:db8::1]", "ip address"),
    ("2001:db8::1", "ip address"),
    ("com", "public suffix"),
    ("COM.", "public suffix"),
    ("co.uk", "public suffix"),
    ("localhost", "public suffix"),
    ("a..example.com", "empty label"),
    (".example.com", "empty label"),
    ("-ads.example.com", "hyphen"),
    ("ads-.example.com", "hyphen"),
    ("ads!.example.com", "character"),
    ("xn--zz!.example.com", "punycode"),
    ("ads.example.com?x", "query"),
    (String(repeating: "a", count: 64) + ".example.com", "longer than 63"),
    (Array(repeating: "abcdefghi", count: 26).joined(separator: ".") + ".com", "longer than 253"),
    ("ad☃.example.com", "character"),
])
func rejects(input: String, reasonWords: String) {
    #expect {
        try Hostname.normalize(input)
    } throws: { error in
        guard let error = error as? HostnameError else { return false }
        return error.input == input && error.reason.contains(reasonWords)
            && error.description.hasPrefix("invalid hostname '\(input)'")
    }
}

@Test(arguments: [
    ("example.com", "example.com", true),
    ("ads.example.com", "example.com", true),
    ("a.b.example.com", "example.com", true),
    ("badexample.com", "example.com", false),
    ("example.com", "ads.example.com", false),
    ("example.com.evil.net", "example.com", false),
    ("xample.com", "example.com", false),
    ("com", "example.com", false),
    ("example.com", "", false),
])
func labelBoundary(host: String, parent: String, expected: Bool) {
    #expect(Hostname.isSameOrSubdomain(host, of: parent) == expected)
}

@Test(arguments: [
    ("ads.example.com", "example.com"),
    ("example.com", "example.com"),
    ("a.b.example.co.uk", "example.co.uk"),
    ("news.bbc.co.uk", "bbc.co.uk"),
    ("192.0.2.1", "192.0.2.1"),
    ("localhost", "localhost"),
])
func registrableDomain(host: String, expected: String) {
    #expect(Hostname.registrableDomain(host) == expected)
}
