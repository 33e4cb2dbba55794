extension JSONScanner {
    /// Reads `true` or `false`.
    /// - Parameter path: the value's path, built only for an error.
    /// - Throws: `JSONInputError`: shape when the value is something else; syntax for a
    ///   misspelt literal.
    public mutating func readBool(at path: @autoclosure () -> JSONPath) throws(JSONInputError) -> Bool {
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: "t"):
            try expectLiteral("true", at: path)
            return true
        case UInt8(ascii: "f"):
            try expectLiteral("false", at: path)
            return false
        default: throw mismatch("true or false", at: path())
        }
    }

    /// Reads `null`.
    /// - Parameter path: the value's path, built only for an error.
    /// - Throws: `JSONInputError`: shape when the value is something else; syntax for a
    ///   misspelt literal.
    public mutating func readNull(at path: @autoclosure () -> JSONPath) throws(JSONInputError) {
        skipWhitespace()
        guard peek() == UInt8(ascii: "n") else { throw mismatch("null", at: path()) }
        try expectLiteral("null", at: path)
    }

    /// Moves past `literal`, which must be the whole word at `index` (`nullx` is no `null`).
    private mutating func expectLiteral(_ literal: StaticString, at path: () -> JSONPath) throws(JSONInputError) {
        let count = literal.utf8CodeUnitCount
        let matches = index + count <= bytes.count && literal.withUTF8Buffer { expected in
            expected.elementsEqual(bytes[index..<index + count])
        }
        let end = index + count
        guard matches, end == bytes.count || !(ASCII.isLetter(bytes[end]) || ASCII.isDigit(bytes[end])) else {
            throw invalidValue(at: path())
        }
        index = end
    }
}
