extension JSONScanner {
    /// The kinds of JSON value, as told by a value's first byte.
    public enum ValueKind: Sendable, Hashable {
        /// `{`
        case object
        /// `[`
        case array
        /// `"`
        case string
        /// `-` or a digit
        case number
        /// `t` or `f`
        case bool
        /// `n`
        case null
    }

    /// The kind of the value that starts after any whitespace; nil at the end of the
    /// input or where no value can start. Only the first byte is looked at.
    public mutating func peekKind() -> ValueKind? {
        skipWhitespace()
        switch peek() {
        case ASCII.openBrace: return .object
        case ASCII.openBracket: return .array
        case ASCII.quote: return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case let byte? where byte == ASCII.minus || ASCII.isDigit(byte): return .number
        default: return nil
        }
    }
}
