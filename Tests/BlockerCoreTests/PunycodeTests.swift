import Testing
@testable import BlockerCore

/// Sample strings from RFC 3492 section 7.1 (case preserved, as the RFC encodes them).
@Test(arguments: [
    // (B) Chinese (simplified)
    ("他们为什么不说中文", "ihqwcrb4cv8a8dqg056pqjye"),
    // (L) 3<nen>B<gumi><kinpachi><sensei>
    ("3年B組金八先生", "3B-ww4c5e180e575a65lsy2b"),
    // (M) <amuro><namie>-with-SUPER-MONKEYS
    ("安室奈美恵-with-SUPER-MONKEYS", "-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n"),
    // (O) <hitotsu><yane><no><shita>2
    ("ひとつ屋根の下2", "2-u9tlzr9756bt3uc0v"),
    // (Q) <pafii>de<runba>
    ("パフィーdeルンバ", "de-jg4avhby1noc0d"),
    // (R) <sono><supiido><de>
    ("そのスピードで", "d9juau41awczczp"),
])
func rfc3492Samples(unicode: String, encoded: String) {
    #expect(Punycode.encode(unicode) == encoded)
    #expect(Punycode.decode(encoded) == unicode)
}

@Test func rejectsInvalidDigits() {
    #expect(Punycode.decode("abc!") == nil)
    #expect(Punycode.decode("ü-abc") == nil)
}
