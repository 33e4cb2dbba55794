import Testing
import StrictJSON

@Suite struct JSONPathTests {
    @Test(arguments: [
        (JSONPath.root, ""),
        (["rules", 3, "condition", "urlFilter"], "rules[3].condition.urlFilter"),
        ([0, "a"], "[0].a"),
        ([0, 1, 2], "[0][1][2]"),
        (["odd key"], #"["odd key"]"#),
        (["a", "b-c", 2, "_ok$"], #"a["b-c"][2]._ok$"#),
        (["quote\"d\\", "2x"], #"["quote\"d\\"]["2x"]"#),
        (["é"], #"["é"]"#),
        ([""], #"[""]"#),
        (["1abc"], #"["1abc"]"#),
    ] as [(JSONPath, String)])
    func rendersAndReadsBack(_ path: JSONPath, _ text: String) {
        #expect(path.description == text)
        #expect(JSONPath(rendered: text) == path)
    }

    @Test(arguments: ["a..b", ".a", "a.", "a[", "a[x]", "a[1", #"a["x"#, "[-1]", "a[0]b"])
    func refusesTextItNeverRenders(_ text: String) {
        #expect(JSONPath(rendered: text) == nil)
    }

    @Test func readsBareKeysThatAreNoIdentifiers() {
        #expect(JSONPath(rendered: "icons.16") == ["icons", "16"])
        #expect(JSONPath(rendered: "trigger.url-filter") == ["trigger", "url-filter"])
    }

    @Test func appendHelpersBuildPaths() {
        var path = JSONPath.root.appending(key: "steps").appending(index: 2)
        path.append(key: "at")
        #expect(path.description == "steps[2].at")
        path.append(index: 0)
        #expect(path.components == ["steps", 2, "at", 0])
        #expect(!path.isEmpty)
        #expect(JSONPath.root.isEmpty)
    }

    @Test func codingPathsBecomePaths() {
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int?
            init(stringValue: String) { self.stringValue = stringValue }
            init(intValue: Int) { self.stringValue = "Index \(intValue)"; self.intValue = intValue }
        }
        let path = JSONPath(codingPath: [Key(intValue: 3), Key(stringValue: "condition"), Key(stringValue: "url-filter")])
        #expect(path.description == #"[3].condition["url-filter"]"#)
    }
}
