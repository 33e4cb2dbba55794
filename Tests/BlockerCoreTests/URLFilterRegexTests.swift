import Testing
@testable import BlockerCore

/// The subset Apple documents for url-filter ("Capture URLs by pattern": `.`, `[a-b]`,
/// `*`, `+`, `?`, `(...)`, `^`, `$`) and what WebKit's URLFilterParser refuses.
@Test(arguments: [
    (".*", true), ("^https?://", true), ("[^a-zA-Z0-9_.%-]", true), ("(ads\\.)?example\\.com", true), ("a+b?c*$", true),
    ("\\.js$", true), ("^[^:]+://+([^:/]+\\.)?doubleclick\\.net[^a-zA-Z0-9_.%-]", true),
    ("a|b", false), ("\\d+", false), ("\\w", false), ("a{2}", false), ("a{1,3}", false), ("(a)\\1", false),
    ("a^b", false), ("a$b", false), ("(?=a)", false), ("reklamа", false), ("", false), ("*a", false), ("a**", false),
    ("\\bads", false), ("[ab", false), ("(ab", false),
])
func webKitSubset(pattern: String, accepted: Bool) {
    let parsed = try? URLFilterRegex(pattern)
    #expect((parsed != nil) == accepted)
}

@Test(arguments: [
    ("^https?://", "https://a.example/", true), ("^https?://", "ftp://a.example/", false),
    ("ads\\.js$", "https://a.example/ads.js", true), ("ads\\.js$", "https://a.example/ads.js?x", false),
    ("(ab)+c", "xxababc", true), ("(ab)+c", "xxac", false), ("[0-9]+x", "id42x", true), ("[^/]+\\.png", "https://a/b.png", true),
    ("AdS", "https://a.example/ads", true),
    ("^[^:]+://+([^:/]+\\.)?doubleclick\\.net[^a-zA-Z0-9_.%-]", "https://ad.doubleclick.net/x", true),
    ("^[^:]+://+([^:/]+\\.)?doubleclick\\.net[^a-zA-Z0-9_.%-]", "https://notdoubleclick.net/x", false),
    ("^[^:]+://+([^:/]+\\.)?doubleclick\\.net[^a-zA-Z0-9_.%-]", "https://doubleclick.net.evil.example/x", false),
])
func regexMatching(pattern: String, text: String, expected: Bool) throws {
    #expect(try URLFilterRegex(pattern).matches(text) == expected)
}

@Test func caseSensitiveFilter() throws {
    #expect(try !URLFilterRegex("AdS", caseSensitive: true).matches("https://a.example/ads"))
    #expect(try URLFilterRegex("AdS", caseSensitive: true).matches("https://a.example/AdS"))
    #expect(try !URLFilterRegex("[A-Z]x", caseSensitive: true).matches("ax"))
}
