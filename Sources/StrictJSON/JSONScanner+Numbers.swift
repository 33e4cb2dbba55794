extension JSONScanner {
    /// Reads a number as a `Double`.
    /// - Parameter path: the value's path, built only for an error.
    /// - Throws: `JSONInputError`: shape when the value is not a number; syntax when it
    ///   breaks RFC 8259's number grammar or is too large for a `Double`.
    public mutating func readNumber(at path: @autoclosure () -> JSONPath) throws(JSONInputError) -> Double {
        skipWhitespace()
        guard let first = peek(), first == ASCII.minus || ASCII.isDigit(first) else { throw mismatch("a number", at: path()) }
        let (start, isInteger) = try scanNumber(at: path)
        let digits = index - start
        // Short integers convert exactly without going through text.
        if isInteger, digits <= 15 {
            var value: Int64 = 0
            for byte in bytes[start..<index] where byte != ASCII.minus {
                value = value * 10 + Int64(byte - ASCII.zero)
            }
            // Negated as a Double so that "-0" stays -0.0, as JSONDecoder reads it.
            return bytes[start] == ASCII.minus ? -Double(value) : Double(value)
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw syntax("number '\(text)' is too large", at: path(), offset: start)
        }
        return value
    }

    /// Reads an integer that fits `Int64`; a fraction or exponent is a shape error even
    /// when the value is whole (`1.0`, `1e3`).
    /// - Parameter path: the value's path, built only for an error.
    /// - Throws: `JSONInputError`: shape when the value is not an integer or is out of
    ///   range; syntax when it breaks the number grammar.
    public mutating func readInteger(at path: @autoclosure () -> JSONPath) throws(JSONInputError) -> Int64 {
        skipWhitespace()
        guard let first = peek(), first == ASCII.minus || ASCII.isDigit(first) else { throw mismatch("an integer", at: path()) }
        let (start, isInteger) = try scanNumber(at: path)
        let end = index
        func text() -> String { String(decoding: bytes[start..<end], as: UTF8.self) }
        guard isInteger else { throw error("expected an integer, found '\(text())'", at: path(), offset: start) }
        let negative = bytes[start] == ASCII.minus
        var value: Int64 = 0
        for byte in bytes[(negative ? start + 1 : start)..<index] {
            // Accumulate negatively so Int64.min, whose magnitude has no positive Int64, fits.
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = times.subtractingReportingOverflow(Int64(byte - ASCII.zero))
            guard !overflow1, !overflow2 else {
                throw error("integer '\(text())' is out of range (\(Int64.min)...\(Int64.max))", at: path(), offset: start)
            }
            value = next
        }
        if negative { return value }
        guard value != .min else {
            throw error("integer '\(text())' is out of range (\(Int64.min)...\(Int64.max))", at: path(), offset: start)
        }
        return -value
    }

    /// Moves past the number at `index`, checking RFC 8259's grammar exactly:
    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    /// - Returns: where it starts, and whether it has neither fraction nor exponent.
    mutating func scanNumber(at path: () -> JSONPath) throws(JSONInputError) -> (start: Int, isInteger: Bool) {
        let start = index
        if peek() == ASCII.minus { index += 1 }
        guard let first = peek() else { throw truncated("in a number", at: path()) }
        if first == ASCII.zero {
            index += 1
            if let next = peek(), ASCII.isDigit(next) {
                throw syntax("numbers cannot have leading zeros ('\(token(from: start))')", at: path(), offset: start)
            }
        } else if ASCII.isDigit(first) {
            skipDigits()
        } else if token(from: start) == "-Infinity" {
            throw syntax("'-Infinity' is not json; numbers must be finite", at: path(), offset: start)
        } else {
            throw syntax("expected a digit after '-', found \(found(at: index))", at: path())
        }
        var isInteger = true
        if peek() == ASCII.dot {
            isInteger = false
            index += 1
            try expectDigit(after: "the '.'", inNumberAt: start, at: path)
        }
        if peek() == ASCII.lowerE || peek() == ASCII.upperE {
            isInteger = false
            index += 1
            if peek() == ASCII.plus || peek() == ASCII.minus { index += 1 }
            try expectDigit(after: "the exponent", inNumberAt: start, at: path)
        }
        return (start, isInteger)
    }

    private mutating func expectDigit(after part: String, inNumberAt start: Int, at path: () -> JSONPath) throws(JSONInputError) {
        guard let byte = peek() else { throw truncated("in a number", at: path()) }
        guard ASCII.isDigit(byte) else {
            throw syntax("expected a digit after \(part) in '\(token(from: start))'", at: path())
        }
        skipDigits()
    }

    private mutating func skipDigits() {
        while index < bytes.count, ASCII.isDigit(bytes[index]) { index += 1 }
    }
}
