import Testing
import StrictJSON

@Suite struct JSONInputErrorTests {
    @Test(arguments: [
        (JSONInputError(file: "scenario.json", line: 4, column: 17, path: "steps[2].at", message: "must be a number"),
         "scenario.json:4:17: steps[2].at: must be a number"),
        (JSONInputError(line: 4, column: 17, path: "steps[2].at", message: "must be a number"), "4:17: steps[2].at: must be a number"),
        (JSONInputError(file: "f.json", path: "rules[0]", message: "missing key 'id'"), "f.json: rules[0]: missing key 'id'"),
        (JSONInputError(file: "f.json", line: 1, column: 1, message: "empty input (truncated?)"), "f.json:1:1: empty input (truncated?)"),
        (JSONInputError(message: "empty input"), "empty input"),
    ])
    func rendersWhatIsKnown(_ error: JSONInputError, _ text: String) {
        #expect(error.description == text)
    }

    @Test func withFileKeepsTheRest() {
        let error = JSONInputError(line: 2, column: 3, path: "a", message: "m", offset: 9, kind: .syntax).with(file: "x.json")
        #expect(error == JSONInputError(file: "x.json", line: 2, column: 3, path: "a", message: "m", offset: 9, kind: .syntax))
    }

    @Test func locationsCountCharactersAndLineEnds() {
        let bytes = Array("ab\r\ncd\ref\nçé!".utf8)
        #expect(JSONLocation(offset: 0, in: bytes) == JSONLocation(offset: 0, line: 1, column: 1))
        #expect(JSONLocation(offset: 5, in: bytes) == JSONLocation(offset: 5, line: 2, column: 2))
        #expect(JSONLocation(offset: 8, in: bytes) == JSONLocation(offset: 8, line: 3, column: 2))
        // "çé" is four bytes and two columns.
        #expect(JSONLocation(offset: 14, in: bytes) == JSONLocation(offset: 14, line: 4, column: 3))
        #expect(JSONLocation(offset: 99, in: bytes).offset == bytes.count)
    }
}
