import Testing
@testable import BlockerCore

/// Anchors as Chromium's url_pattern_unittest.cc writes them.
enum Anchor { case none, boundary, subdomain }

struct PatternCase: CustomStringConvertible, Sendable {
    let body: String
    let left: Anchor
    let right: Anchor
    let caseSensitive: Bool
    let url: String
    let expected: Bool

    var description: String { "\(left)/\(body)/\(right) on \(url)" }
}

private func c(_ body: String, _ left: Anchor = .none, _ right: Anchor = .none, _ url: String, _ expected: Bool,
               matchCase: Bool = false) -> PatternCase {
    PatternCase(body: body, left: left, right: right, caseSensitive: matchCase, url: url, expected: expected)
}

/// The MatchesUrl table of components/url_pattern_index/url_pattern_unittest.cc
/// (Chromium), case for case. URLs go through DNRURL canonicalization, which adds
/// the `/` path GURL adds ("http://example.com" becomes "http://example.com/").
let chromiumURLPatternCases: [PatternCase] = [
    c("", .none, .none, "http://ex.com/", true),
    c("", .boundary, .none, "http://ex.com/", true),
    c("", .subdomain, .none, "http://ex.com/", true),
    c("^", .subdomain, .none, "http://ex.com/", false),
    c(".", .subdomain, .none, "http://ex.com/", false),
    c("", .none, .boundary, "http://ex.com/", true),
    c("^", .none, .boundary, "http://ex.com/", true),
    c(".", .none, .boundary, "http://ex.com/", false),
    c("", .boundary, .boundary, "http://ex.com/", false),
    c("", .subdomain, .boundary, "http://ex.com/", false),
    c("com/", .subdomain, .boundary, "http://ex.com/", true),
    c("xampl", .none, .none, "http://example.com", true),
    c("example", .none, .none, "http://example.com", true),
    c("/a?a", .none, .none, "http://ex.com/a?a", true),
    c("^abc", .none, .none, "http://ex.com/abc?a", true),
    c("^abc", .none, .none, "http://ex.com/a?abc", true),
    c("^abc", .none, .none, "http://ex.com/abc?abc", true),
    c("^abc^abc", .none, .none, "http://ex.com/abc?abc", true),
    c("^com^abc^abc", .none, .none, "http://ex.com/abc?abc", false),
    c("http://ex", .boundary, .none, "http://example.com", true),
    c("http://ex", .none, .none, "http://example.com", true),
    c("mple.com/", .none, .boundary, "http://example.com", true),
    c("mple.com/", .none, .none, "http://example.com", true),
    c("mple.com/", .subdomain, .none, "http://example.com", false),
    c("ex.com", .subdomain, .none, "http://hex.com", false),
    c("ex.com", .subdomain, .none, "http://ex.com", true),
    c("ex.com", .subdomain, .none, "http://hex.ex.com", true),
    c("ex.com", .subdomain, .none, "http://hex.hex.com", false),
    c("example.com^", .subdomain, .none, "http://www.example.com", true),
    c("http://*mpl", .boundary, .none, "http://example.com", true),
    c("mpl*com/", .none, .boundary, "http://example.com", true),
    c("example^com", .none, .none, "http://example.com", false),
    c("example^com", .none, .none, "http://example/com", true),
    c("example.com^", .none, .none, "http://example.com:8080", true),
    c("http*.com/", .boundary, .boundary, "http://example.com", true),
    c("http*.org/", .boundary, .boundary, "http://example.com", false),
    c("/path?*&p1=*&p2=", .none, .none, "http://ex.com/aaa/path/bbb?k=v&p1=0&p2=1", false),
    c("/path?*&p1=*&p2=", .none, .none, "http://ex.com/aaa/path?k=v&p1=0&p2=1", true),
    c("/path?*&p1=*&p2=", .none, .none, "http://ex.com/aaa/path?k=v&k=v&p1=0&p2=1", true),
    c("/path?*&p1=*&p2=", .none, .none, "http://ex.com/aaa/path?k=v&p1=0&p3=10&p2=1", true),
    c("/path?*&p1=*&p2=", .none, .none, "http://ex.com/aaa/path&p1=0&p2=1", false),
    c("/path?*&p1=*&p2=", .none, .none, "http://ex.com/aaa/path?k=v&p2=0&p1=1", false),
    c("abc*def*ghijk*xyz", .none, .none, "http://example.com/abcdeffffghijkmmmxyzzz", true),
    c("abc*cdef", .none, .none, "http://example.com/abcdef", false),
    c("^^a^^", .none, .none, "http://ex.com/?a=/", true),
    c("^^a^^", .none, .none, "http://ex.com/?a=/&b=0", true),
    c("^^a^^", .none, .none, "http://ex.com/?a=x", false),
    c("^^a^^", .none, .none, "http://ex.com/?a=", true),
    c("ex.com^path^*k=v^", .none, .none, "http://ex.com/path/?k1=v1&ak=v&kk=vv", true),
    c("ex.com^path^*k=v^", .none, .none, "http://ex.com/p/path/?k1=v1&ak=v&kk=vv", false),
    c("a^a&a^a&", .none, .none, "http://ex.com/a/a/a/a/?a&a&a&a&a", true),
    c("abc*def^", .none, .none, "http://ex.com/abc/a/ddef/", true),
    c("https://example.com/", .none, .none, "http://example.com/", false),
    c("example.com/", .subdomain, .none, "http://example.com/", true),
    c("examp", .subdomain, .none, "http://example.com/", true),
    c("xamp", .subdomain, .none, "http://example.com/", false),
    c("examp", .subdomain, .none, "http://test.example.com/", true),
    c("t.examp", .subdomain, .none, "http://test.example.com/", false),
    c("com^", .subdomain, .none, "http://test.example.com/", true),
    c("com^x", .subdomain, .boundary, "http://a.com/x", true),
    c("x.com", .subdomain, .none, "http://ex.com/?url=x.com", false),
    c("ex.com/", .subdomain, .boundary, "http://ex.com/", true),
    c("ex.com^", .subdomain, .boundary, "http://ex.com/", true),
    c("ex.co", .subdomain, .boundary, "http://ex.com/", false),
    c("ex.com", .subdomain, .boundary, "http://rex.com.ex.com/", false),
    c("ex.com/", .subdomain, .boundary, "http://rex.com.ex.com/", true),
    c("http", .subdomain, .boundary, "http://http.com/", false),
    c("http", .subdomain, .none, "http://http.com/", true),
    c("/example.com", .subdomain, .boundary, "http://example.com/", false),
    c("/example.com/", .subdomain, .boundary, "http://example.com/", false),
    c(".", .subdomain, .none, "http://a..com/", true),
    c("^", .subdomain, .none, "http://a..com/", false),
    c(".", .subdomain, .none, "http://a.com./", false),
    c("^", .subdomain, .none, "http://a.com./", true),
    c(".", .subdomain, .none, "http://a.com../", true),
    c("^", .subdomain, .none, "http://a.com../", true),
    c("/path", .subdomain, .none, "http://a.com./path/to/x", true),
    c("^path", .subdomain, .none, "http://a.com./path/to/x", true),
    c("/path", .subdomain, .boundary, "http://a.com./path", true),
    c("^path", .subdomain, .boundary, "http://a.com./path", true),
    c("path", .subdomain, .boundary, "http://a.com./path", false),
    c("path", .none, .none, "http://a.com/PaTh", true),
    c("path", .none, .none, "http://a.com/PaTh", false, matchCase: true),
    c("path", .none, .none, "http://a.com/path", true),
    c("path", .none, .none, "http://a.com/path", true, matchCase: true),
    c("abc*def^", .none, .none, "http://a.com/abcxAdef/vo", true, matchCase: true),
    c("abc*def^", .none, .none, "http://a.com/aBcxAdeF/vo", false, matchCase: true),
    c("abc*def^", .none, .none, "http://a.com/aBcxAdeF/vo", true),
    c("abc*def^", .none, .none, "http://a.com/abcxAdef/vo", true),
    c("abc^", .none, .none, "https://xyz.com/abc/123", true),
    c("abc^", .none, .none, "https://xyz.com/abc", true),
    c("abc^", .none, .none, "https://abc.com", false),
    c("abc^", .none, .boundary, "https://xyz.com/abc/", true),
    c("abc^", .none, .boundary, "https://xyz.com/abc", true),
    c("abc^", .none, .boundary, "https://xyz.com/abc/123", false),
    c("http://abc.com/x^", .boundary, .none, "http://abc.com/x", true),
    c("http://abc.com/x^", .boundary, .none, "http://abc.com/x/", true),
    c("http://abc.com/x^", .boundary, .none, "http://abc.com/x/123", true),
    c("http://abc.com/x^", .boundary, .boundary, "http://abc.com/x", true),
    c("http://abc.com/x^", .boundary, .boundary, "http://abc.com/x/", true),
    c("http://abc.com/x^", .boundary, .boundary, "http://abc.com/x/123", false),
    c("abc.com^", .subdomain, .none, "http://xyz.abc.com/123", true),
    c("abc.com^", .subdomain, .none, "http://xyz.abc.com", true),
    c("abc.com^", .subdomain, .none, "http://abc.com.xyz.com?q=abc.com", false),
    c("abc.com^", .subdomain, .boundary, "http://xyz.abc.com/123", false),
    c("abc.com^", .subdomain, .boundary, "http://xyz.abc.com", true),
    c("abc.com^", .subdomain, .boundary, "http://abc.com.xyz.com?q=abc.com/", false),
    c("abc*^", .none, .none, "https://abc.com", true),
    c("abc*^", .none, .none, "https://abc.com?q=123", true),
    c("abc*^", .none, .boundary, "https://abc.com", true),
    c("abc*^", .none, .boundary, "https://abc.com?q=123", true),
    c("abc*", .none, .boundary, "https://a.com/abcxyz", true),
    c("*google.com", .boundary, .none, "https://www.google.com", true),
    c("*", .boundary, .boundary, "https://example.com", true),
    c("", .boundary, .boundary, "https://example.com", false),
]

@Test(arguments: chromiumURLPatternCases)
func chromiumURLPatternTable(_ testCase: PatternCase) throws {
    let left: URLFilterPattern.LeftAnchor =
        switch testCase.left {
        case .none: .none
        case .boundary: .boundary
        case .subdomain: .subdomain
        }
    let pattern = URLFilterPattern(body: testCase.body, left: left, right: testCase.right == .boundary,
                                   caseSensitive: testCase.caseSensitive)
    let url = try #require(DNRURL(testCase.url))
    let result = url.bytes.withUnsafeBufferPointer { pattern.matches($0, host: url.hostRange) }
    #expect(result == testCase.expected)
}

/// The urlFilter examples of Chrome's declarativeNetRequest documentation ("URL filter syntax").
@Test(arguments: [
    ("abc", "https://abcd.com", true), ("abc", "https://example.com/abcd", true), ("abc", "https://ab.com", false),
    ("abc*d", "https://abcd.com", true), ("abc*d", "https://example.com/abcxyzd", true), ("abc*d", "https://abc.com", false),
    ("||a.example.com", "https://a.example.com/", true), ("||a.example.com", "https://b.a.example.com/xyz", true),
    ("||a.example.com", "https://example.com/", false),
    ("|https*", "https://example.com", true), ("|https*", "http://example.com/", false), ("|https*", "http://https.com", false),
    ("example*^123|", "https://example.com/123", true), ("example*^123|", "http://abc.com/example?123", true),
    ("example*^123|", "https://example.com/1234", false), ("example*^123|", "https://abc.com/example0123", false),
])
func documentedURLFilterExamples(filter: String, url: String, expected: Bool) throws {
    let pattern = URLFilterPattern(filter, caseSensitive: false)
    let parsed = try #require(DNRURL(url))
    #expect(parsed.bytes.withUnsafeBufferPointer { pattern.matches($0, host: parsed.hostRange) } == expected)
}

@Test(arguments: [
    ("||ads.example.com^", "ads.example.com"), ("||example.com/", "example.com"), ("||example.com:8080", "example.com"),
])
func indexHostIsTheAnchoredHost(filter: String, host: String) {
    #expect(URLFilterPattern(filter, caseSensitive: false).indexHost == host)
}

/// Patterns whose match does not pin the host to one domain must not be indexed by host.
@Test(arguments: ["||ads.example", "|https://ads.example.com^", "ads.example.com^", "||ads.*.com^", "||.example.com^"])
func unindexablePatterns(filter: String) {
    #expect(URLFilterPattern(filter, caseSensitive: false).indexHost == nil)
}

@Test(arguments: [
    ("HTTPS://Ads.Example.COM", "https://ads.example.com/"),
    ("https://bücher.example/x", "https://xn--bcher-kva.example/x"),
    ("https://example.com?q=1", "https://example.com/?q=1"),
    ("http://user@Example.com:8080", "http://user@example.com:8080/"),
])
func urlCanonicalization(input: String, expected: String) throws {
    #expect(try #require(DNRURL(input)).string == expected)
}
