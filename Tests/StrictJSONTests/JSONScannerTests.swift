import Testing
@testable import StrictJSON

/// What the scanner refuses that lenient parsers let through, and exactly where it says so.
@Suite struct JSONScannerTests {
    /// One document the scanner must refuse: its bytes, and the expected line, column, path and message.
    struct Rejection: CustomTestStringConvertible, Sendable {
        let name: String
        let bytes: [UInt8]
        let line: Int
        let column: Int
        let path: String
        let message: String

        init(_ name: String, _ text: String, _ line: Int, _ column: Int, path: String = "", _ message: String) {
            self.init(name, Array(text.utf8), line, column, path: path, message)
        }

        init(_ name: String, _ bytes: [UInt8], _ line: Int, _ column: Int, path: String = "", _ message: String) {
            self.name = name
            self.bytes = bytes
            self.line = line
            self.column = column
            self.path = path
            self.message = message
        }

        var testDescription: String { name }
    }

    static let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)

    static let rejections: [Rejection] = [
        Rejection("trailing comma in an array", "[1,]", 1, 3, "trailing comma in an array"),
        Rejection("trailing comma in an object", #"{"a":1,}"#, 1, 7, "trailing comma in an object"),
        Rejection("duplicate key", #"{"a":1,"a":2}"#, 1, 8, path: "a", "duplicate key 'a' (first at line 1, column 2)"),
        Rejection("byte-order mark", [0xEF, 0xBB, 0xBF] + Array("{}".utf8), 1, 1,
                  "byte-order mark at the start; save the file as utf-8 without one"),
        Rejection("invalid utf-8 in a string", [UInt8(ascii: "["), 0x22, 0x61, 0xFF, 0x62, 0x22, UInt8(ascii: "]")], 1, 4,
                  path: "[0]", "invalid utf-8 byte 0xff in a string"),
        Rejection("overlong utf-8 in a string", [0x22, 0xC0, 0xAF, 0x22], 1, 2, "invalid utf-8 byte 0xc0 in a string"),
        Rejection("utf-8 surrogate in a string", [0x22, 0xED, 0xA0, 0x80, 0x22], 1, 2, "invalid utf-8 byte 0xed in a string"),
        Rejection("invalid utf-8 outside strings", [UInt8(ascii: "["), 0xFF, UInt8(ascii: "]")], 1, 2,
                  path: "[0]", "expected a value, found invalid utf-8 byte 0xff"),
        Rejection("NaN", "NaN", 1, 1, "'NaN' is not json; numbers must be finite"),
        Rejection("Infinity", "Infinity", 1, 1, "'Infinity' is not json; numbers must be finite"),
        Rejection("-Infinity", "[-Infinity]", 1, 2, path: "[0]", "'-Infinity' is not json; numbers must be finite"),
        Rejection("leading zero", "01", 1, 1, "numbers cannot have leading zeros ('01')"),
        Rejection("negative leading zero", "[-007]", 1, 2, path: "[0]", "numbers cannot have leading zeros ('-007')"),
        Rejection("leading plus", "+1", 1, 1, "numbers cannot start with '+' ('+1')"),
        Rejection("no digit before the point", ".5", 1, 1, "numbers need a digit before the '.' ('.5')"),
        Rejection("no digit after the point", "[1.]", 1, 4, path: "[0]", "expected a digit after the '.' in '1.'"),
        Rejection("number cut after the point", "1.", 1, 3, "unexpected end of input in a number (truncated?)"),
        Rejection("no exponent digits", "[1e+]", 1, 5, path: "[0]", "expected a digit after the exponent in '1e+'"),
        Rejection("number too large for a double", "[1e400]", 1, 2, path: "[0]", "number '1e400' is too large"),
        Rejection("minus alone", "[-]", 1, 3, path: "[0]", "expected a digit after '-', found ']'"),
        Rejection("lone high surrogate", #""\ud800""#, 1, 2, "lone surrogate '\\ud800' in a string; \\ud800-\\udfff must come in pairs"),
        Rejection("lone low surrogate", #"{"k":"x\udc00"}"#, 1, 8, path: "k",
                  "lone surrogate '\\udc00' in a string; \\ud800-\\udfff must come in pairs"),
        Rejection("high surrogate before a non-surrogate", #""\ud800\u0041""#, 1, 2,
                  "lone surrogate '\\ud800' in a string; \\ud800-\\udfff must come in pairs"),
        Rejection("raw tab in a string", "\"a\tb\"", 1, 3, "unescaped tab in a string; write it as '\\t'"),
        Rejection("raw newline in a string", "[\"a\nb\"]", 1, 4, path: "[0]",
                  "unescaped line break in a string; write it as '\\n' (or is a closing quote missing?)"),
        Rejection("raw control character in a string", "\"\u{1}\"", 1, 2,
                  "unescaped control character U+0001 in a string; write it as '\\u0001'"),
        Rejection("unknown escape", #""a\x""#, 1, 3, "unknown escape '\\x' in a string"),
        Rejection("short unicode escape", #""\u12G4""#, 1, 2, "invalid escape '\\u12G' in a string; \\u takes 4 hex digits"),
        Rejection("unterminated string", #""abc"#, 1, 5, "unexpected end of input in a string (truncated?)"),
        Rejection("unterminated array", "[1,2", 1, 5, "unexpected end of input in an array (truncated?)"),
        Rejection("unterminated object", #"{"a":1"#, 1, 7, "unexpected end of input in an object (truncated?)"),
        Rejection("missing value", #"{"a":}"#, 1, 6, path: "a", "expected a value, found '}'"),
        Rejection("unquoted key", "{a:1}", 1, 2, "expected a key in double quotes, found 'a'"),
        Rejection("missing colon", #"{"a" 1}"#, 1, 6, "expected ':' after the key 'a', found '1'"),
        Rejection("missing comma", "[1 2]", 1, 4, "expected ',' or ']' after an element, found '2'"),
        Rejection("single quotes", "['a']", 1, 2, path: "[0]", "expected a value, found '''"),
        Rejection("misspelt literal", "[True]", 1, 2, path: "[0]", "unknown literal 'True'; json has only true, false and null"),
        Rejection("literal run on", "nullx", 1, 1, "unknown literal 'nullx'; json has only true, false and null"),
        Rejection("truncated literal", "[tru", 1, 5, path: "[0]", "unexpected end of input in 'tru' (truncated?)"),
        Rejection("comment", "[1] // one", 1, 5, "unexpected text after the document: '/'"),
        Rejection("trailing text", "{} x", 1, 4, "unexpected text after the document: 'x'"),
        Rejection("empty input", "", 1, 1, "empty input (truncated?)"),
        Rejection("only whitespace", " \n ", 2, 2, "no value, only whitespace (truncated?)"),
        Rejection("600-deep nesting", deep, 1, 513, path: String(repeating: "[0]", count: 512), "nested deeper than 512 levels"),
        Rejection("error on line 3", "{\n  \"a\": 1,\n  \"b\": tru\n}", 3, 8, path: "b",
                  "unknown literal 'tru'; json has only true, false and null"),
        Rejection("columns count characters", "{\"é\": ?}", 1, 7, path: #"["é"]"#, "expected a value, found '?'"),
        Rejection("CR LF line ends", "[\r\n1,\r\n]", 2, 2, "trailing comma in an array"),
    ]

    @Test(arguments: rejections)
    func refusesWithLineAndColumn(_ case: Rejection) {
        do {
            let value = try JSONValue.parse(`case`.bytes)
            Issue.record("parsed as \(value)")
        } catch {
            #expect(error.line == `case`.line)
            #expect(error.column == `case`.column)
            #expect(error.path == `case`.path)
            #expect(error.message == `case`.message)
            #expect(error.kind == .syntax)
            #expect(error.offset != nil)
        }
    }

    @Test func nestingLimitIsConfigurable() throws {
        #expect(throws: JSONInputError.self) { try JSONValue.parse("[[[]]]", maxDepth: 2) }
        #expect(try JSONValue.parse("[[]]", maxDepth: 2) == .array([.array([])]))
        // Exactly at the default limit is fine.
        let atLimit = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(throws: Never.self) { try JSONValue.parse(atLimit) }
    }

    @Test func duplicateKeysInLargeObjectsAreFound() {
        let members = (0..<100).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        do {
            _ = try JSONValue.parse("{" + members + ",\"k7\":0}")
            Issue.record("a repeated key was accepted")
        } catch {
            #expect(error.message == "duplicate key 'k7' (first at line 1, column 51)")
        }
        // The same key in sibling or nested objects is no duplicate.
        #expect(throws: Never.self) { try JSONValue.parse(#"[{"a":1},{"a":{"a":2}}]"#) }
    }

    @Test(arguments: [
        ("0", Int64(0)), ("-0", 0), ("42", 42), ("9223372036854775807", .max), ("-9223372036854775808", .min),
    ])
    func readsIntegers(_ text: String, _ expected: Int64) throws {
        var scanner = JSONScanner(Array(text.utf8))
        #expect(try scanner.readDocument { (scanner: inout JSONScanner) throws(JSONInputError) in
            try scanner.readInteger(at: ["n"])
        } == expected)
    }

    @Test(arguments: [
        ("9223372036854775808", "integer '9223372036854775808' is out of range (-9223372036854775808...9223372036854775807)"),
        ("-9223372036854775809", "integer '-9223372036854775809' is out of range (-9223372036854775808...9223372036854775807)"),
        ("1.0", "expected an integer, found '1.0'"),
        ("1e3", "expected an integer, found '1e3'"),
        (#""1""#, "expected an integer, found a string"),
        ("null", "expected an integer, found 'null'"),
    ])
    func refusesWhatIsNoInt64(_ text: String, _ message: String) {
        var scanner = JSONScanner(Array(text.utf8))
        do {
            _ = try scanner.readInteger(at: ["rules", 0, "modifiedAt"])
            Issue.record("read an integer from \(text)")
        } catch {
            #expect(error.description == "1:1: rules[0].modifiedAt: \(message)")
            #expect(error.kind == .shape)
        }
    }

    @Test func typeMismatchesAreShapeErrorsUnlessTheValueIsNotJSON() {
        var scanner = JSONScanner(Array(#"{"a":[1,]}"#.utf8))
        do {
            _ = try scanner.readString(at: .root)
            Issue.record("read a string from an object")
        } catch {
            // The object is malformed, which says more than "expected a string".
            #expect(error.kind == .syntax)
            #expect(error.description == "1:8: a: trailing comma in an array")
        }
        var other = JSONScanner(Array(" [true]".utf8))
        do {
            _ = try other.readBool(at: ["flag"])
            Issue.record("read a bool from an array")
        } catch {
            #expect(error.kind == .shape)
            #expect(error.description == "1:2: flag: expected true or false, found an array")
        }
    }

    @Test func memberCallbacksSeeKeysInOrderWithTheirOffsets() throws {
        var scanner = JSONScanner(Array(#"{"b": 1, "a": [true, null]}"#.utf8))
        var seen: [String] = []
        var offsets: [Int] = []
        try scanner.readDocument { (scanner: inout JSONScanner) throws(JSONInputError) in
            try scanner.readObject(at: .root) { (scanner: inout JSONScanner, key: String) throws(JSONInputError) in
                seen.append(key)
                offsets.append(scanner.keyOffset)
                try scanner.skipValue(at: [.key(key)])
            }
        }
        #expect(seen == ["b", "a"])
        #expect(offsets == [1, 9])
    }

    @Test func peekKindNamesTheNextValue() {
        var scanner = JSONScanner(Array("  [".utf8))
        #expect(scanner.peekKind() == .array)
        #expect(scanner.index == 2)
        var empty = JSONScanner([])
        #expect(empty.peekKind() == nil)
    }
}
