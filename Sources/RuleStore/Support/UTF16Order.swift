/// String comparison by UTF-16 code units, the order JavaScript's `<` uses.
///
/// Swift's own `<` compares Unicode scalars, which differs from JavaScript for
/// characters above U+FFFF; records must sort and tie-break identically in both.
enum UTF16Order {
    /// Whether `a` sorts strictly before `b`.
    static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf16.lexicographicallyPrecedes(b.utf16)
    }
}
