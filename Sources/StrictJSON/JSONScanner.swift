/// A strict RFC 8259 pull reader over the UTF-8 bytes of one document.
///
/// Readers call it in the shape they expect (`readObject` with a callback per member,
/// `readArray` with one per element, scalars in between), so nothing is built that the
/// caller does not keep. Beyond the grammar it refuses what lenient parsers let through:
/// duplicate keys, trailing commas, a byte-order mark, invalid UTF-8, lone surrogates,
/// `NaN` and `Infinity`, text after the document, and nesting deeper than `maxDepth`.
///
/// Every error carries the byte offset, line and column where it was found and the JSON
/// path of the value being read. Paths are taken as autoclosures and only built when
/// something is wrong, so the success path pays nothing for them.
///
/// After an error the scanner's position is unspecified; start a new one to read again.
public struct JSONScanner: Sendable {
    /// The document.
    public let bytes: [UInt8]
    /// Offset of the next byte to read.
    public internal(set) var index = 0
    /// The most objects and arrays that may be open at once.
    public let maxDepth: Int
    /// Objects and arrays open at `index`.
    public internal(set) var depth = 0
    /// Offset of the opening quote of the key whose value a member callback is reading.
    public internal(set) var keyOffset = 0

    /// The keys seen so far in every object being read, innermost last, for refusing
    /// duplicates; one shared buffer so that reading an object allocates nothing.
    var openKeys: [(name: String, offset: Int)] = []

    /// Objects with more keys than this check duplicates by hashing instead of by comparison.
    static let linearKeyLimit = 16

    /// A scanner at the start of `bytes`.
    /// - Parameter maxDepth: nesting limit; the default (512) keeps hostile input from exhausting the stack.
    public init(_ bytes: [UInt8], maxDepth: Int = 512) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    /// The byte at `index` without consuming it; nil at the end.
    public func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    /// True when nothing but whitespace is left.
    public var isAtEnd: Bool {
        var probe = self
        probe.skipWhitespace()
        return probe.index == bytes.count
    }

    /// Moves past JSON whitespace (space, tab, LF, CR).
    public mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case ASCII.space, ASCII.newline, ASCII.carriageReturn, ASCII.tab: index += 1
            default: return
            }
        }
    }

    // MARK: - Documents

    /// Reads one whole document with `body`: refuses a byte-order mark and empty input
    /// first, and any text left after `body` returns.
    /// - Throws: `JSONInputError` from the checks or from `body`.
    public mutating func readDocument<Value>(
        _ body: (inout JSONScanner) throws(JSONInputError) -> Value
    ) throws(JSONInputError) -> Value {
        try beginDocument()
        let value = try body(&self)
        try endDocument()
        return value
    }

    /// Checks the start of a document: no byte-order mark, and a value follows.
    /// - Throws: `JSONInputError` (syntax) for a byte-order mark or empty input.
    public mutating func beginDocument() throws(JSONInputError) {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw syntax("byte-order mark at the start; save the file as utf-8 without one", at: .root, offset: 0)
        }
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            throw syntax("utf-16 byte-order mark at the start; json must be utf-8", at: .root, offset: 0)
        }
        skipWhitespace()
        if index == bytes.count {
            throw syntax(bytes.isEmpty ? "empty input (truncated?)" : "no value, only whitespace (truncated?)", at: .root)
        }
    }

    /// Checks that only whitespace follows the document's value.
    /// - Throws: `JSONInputError` (syntax) naming the first byte of any other text.
    public mutating func endDocument() throws(JSONInputError) {
        skipWhitespace()
        if index < bytes.count {
            throw syntax("unexpected text after the document: \(found(at: index))", at: .root)
        }
    }

    // MARK: - Containers

    /// Reads an object, calling `member` with each key once the scanner is at its value;
    /// `member` must read (or skip) exactly that value.
    /// - Parameter path: the object's path, built only for an error.
    /// - Throws: `JSONInputError`: shape when the value is not an object; syntax for
    ///   malformed members, a trailing comma or a key that repeats an earlier one.
    public mutating func readObject(
        at path: @autoclosure () -> JSONPath,
        _ member: (inout JSONScanner, String) throws(JSONInputError) -> Void
    ) throws(JSONInputError) {
        skipWhitespace()
        guard peek() == ASCII.openBrace else { throw mismatch("an object", at: path()) }
        try enter(at: path())
        index += 1
        skipWhitespace()
        if peek() == ASCII.closeBrace {
            index += 1
            depth -= 1
            return
        }
        let firstKey = openKeys.count
        defer { openKeys.removeSubrange(firstKey...) }
        var hashedKeys: [String: Int]?
        while true {
            guard peek() == ASCII.quote else {
                throw peek() == nil
                    ? truncated("in an object", at: path())
                    : syntax("expected a key in double quotes, found \(found(at: index))", at: path())
            }
            let keyStart = index
            let key = try readRawString(at: path)
            try noteKey(key, at: keyStart, firstKey: firstKey, hashed: &hashedKeys, path: path)
            skipWhitespace()
            guard peek() == ASCII.colon else {
                throw peek() == nil
                    ? truncated("in an object", at: path())
                    : syntax("expected ':' after the key '\(key)', found \(found(at: index))", at: path())
            }
            index += 1
            keyOffset = keyStart
            try member(&self, key)
            skipWhitespace()
            switch peek() {
            case ASCII.comma:
                let comma = index
                index += 1
                skipWhitespace()
                if peek() == ASCII.closeBrace { throw syntax("trailing comma in an object", at: path(), offset: comma) }
            case ASCII.closeBrace:
                index += 1
                depth -= 1
                return
            case nil: throw truncated("in an object", at: path())
            default: throw syntax("expected ',' or '}' after a member, found \(found(at: index))", at: path())
            }
        }
    }

    /// Reads an array, calling `element` with each index once the scanner is at that
    /// element; `element` must read (or skip) exactly that value.
    /// - Parameter path: the array's path, built only for an error.
    /// - Throws: `JSONInputError`: shape when the value is not an array; syntax for
    ///   malformed elements or a trailing comma.
    public mutating func readArray(
        at path: @autoclosure () -> JSONPath,
        _ element: (inout JSONScanner, Int) throws(JSONInputError) -> Void
    ) throws(JSONInputError) {
        skipWhitespace()
        guard peek() == ASCII.openBracket else { throw mismatch("an array", at: path()) }
        try enter(at: path())
        index += 1
        skipWhitespace()
        if peek() == ASCII.closeBracket {
            index += 1
            depth -= 1
            return
        }
        var position = 0
        while true {
            try element(&self, position)
            position += 1
            skipWhitespace()
            switch peek() {
            case ASCII.comma:
                let comma = index
                index += 1
                skipWhitespace()
                if peek() == ASCII.closeBracket { throw syntax("trailing comma in an array", at: path(), offset: comma) }
            case ASCII.closeBracket:
                index += 1
                depth -= 1
                return
            case nil: throw truncated("in an array", at: path())
            default: throw syntax("expected ',' or ']' after an element, found \(found(at: index))", at: path())
            }
        }
    }

    /// Moves past one value of any kind, checking it as strictly as reading it would.
    /// - Throws: `JSONInputError` (syntax) when the value is malformed.
    public mutating func skipValue(at path: @autoclosure () -> JSONPath = .root) throws(JSONInputError) {
        skipWhitespace()
        switch peek() {
        case ASCII.openBrace:
            try readObject(at: path()) { (scanner: inout JSONScanner, key: String) throws(JSONInputError) in
                try scanner.skipValue(at: path().appending(key: key))
            }
        case ASCII.openBracket:
            try readArray(at: path()) { (scanner: inout JSONScanner, position: Int) throws(JSONInputError) in
                try scanner.skipValue(at: path().appending(index: position))
            }
        case ASCII.quote: _ = try scanString(at: path, keep: false)
        case UInt8(ascii: "t"), UInt8(ascii: "f"): _ = try readBool(at: path())
        case UInt8(ascii: "n"): try readNull(at: path())
        case let byte? where byte == ASCII.minus || ASCII.isDigit(byte): _ = try scanNumber(at: path)
        default: throw invalidValue(at: path())
        }
    }

    // MARK: - Bookkeeping

    /// Counts one more open container at `index`, refusing to go past `maxDepth`.
    mutating func enter(at path: @autoclosure () -> JSONPath) throws(JSONInputError) {
        depth += 1
        if depth > maxDepth { throw syntax("nested deeper than \(maxDepth) levels", at: path()) }
    }

    /// Records `key` of the object whose keys start at `firstKey`, refusing a repeat.
    ///
    /// Small objects (the common case) compare against their few keys; past
    /// `linearKeyLimit` keys a dictionary keeps the check linear in the object's size.
    mutating func noteKey(
        _ key: String, at offset: Int, firstKey: Int, hashed: inout [String: Int]?, path: () -> JSONPath
    ) throws(JSONInputError) {
        if hashed != nil {
            if let first = hashed?.updateValue(offset, forKey: key) { throw duplicate(key, at: offset, first: first, path: path) }
            return
        }
        for seen in openKeys[firstKey...] where seen.name == key {
            throw duplicate(key, at: offset, first: seen.offset, path: path)
        }
        openKeys.append((key, offset))
        if openKeys.count - firstKey > Self.linearKeyLimit {
            hashed = Dictionary(openKeys[firstKey...].map { ($0.name, $0.offset) }, uniquingKeysWith: { first, _ in first })
        }
    }

    private func duplicate(_ key: String, at offset: Int, first: Int, path: () -> JSONPath) -> JSONInputError {
        let earlier = JSONLocation(offset: first, in: bytes)
        return syntax("duplicate key '\(key)' (first at line \(earlier.line), column \(earlier.column))",
                      at: path().appending(key: key), offset: offset)
    }
}
