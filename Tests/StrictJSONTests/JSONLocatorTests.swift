import Testing
import StrictJSON

@Suite struct JSONLocatorTests {
    static let document = Array("""
        {
          "a": {
            "b": [10, 20,
                  {"c": 1}],
            "d": "x"
          },
          "odd key": [true]
        }
        """.utf8)

    @Test(arguments: [
        (JSONPath.root, 1, 1),
        (["a"], 2, 8),
        (["a", "b"], 3, 10),
        (["a", "b", 1], 3, 15),
        (["a", "b", 2], 4, 11),
        (["a", "b", 2, "c"], 4, 17),
        (["odd key", 0], 7, 15),
        // Missing key: the enclosing object.
        (["a", "missing"], 2, 8),
        (["a", "b", 2, "missing", "deeper"], 4, 11),
        // Index past the end: the array.
        (["a", "b", 9], 3, 10),
        // A scalar where the path goes deeper: the scalar.
        (["a", "d", "e"], 5, 10),
    ] as [(JSONPath, Int, Int)])
    func findsTheValueOrItsEnclosingContainer(_ path: JSONPath, _ line: Int, _ column: Int) throws {
        let location = try #require(JSONLocator.locate(path, in: Self.document))
        #expect(location.line == line)
        #expect(location.column == column)
    }

    @Test func acceptsRenderedPaths() throws {
        let location = try #require(JSONLocator.locate(#"a.b[2]"#, in: Self.document))
        #expect(location.description == "line 4, column 11")
        #expect(JSONLocator.locate("a..b", in: Self.document) == nil)
    }

    @Test func aValueBeforeAMalformedPartIsStillFound() throws {
        let bytes = Array(#"{"a": 1, "b": [1,]}"#.utf8)
        #expect(try #require(JSONLocator.locate(["a"], in: bytes)).column == 7)
        #expect(JSONLocator.locate(["c"], in: bytes) == nil)
    }
}
