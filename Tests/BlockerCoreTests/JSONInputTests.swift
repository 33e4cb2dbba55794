import BlockerCore
import Foundation
import Testing

/// Rule and fixture files are read strictly, and every error names its line and column.
@Suite struct JSONInputTests {
    @Test(arguments: [
        (#"[{"id":1,"action":{"type":"block"},"condition":{},}]"#,
         "rules.json:1:50: [0]: invalid json: trailing comma in an object"),
        (#"[{"id":1,"action":{"type":"block"},"condition":{}},]"#,
         "rules.json:1:51: invalid json: trailing comma in an array"),
        (#"[{"id":1,"id":2,"action":{"type":"block"},"condition":{}}]"#,
         "rules.json:1:10: [0].id: invalid json: duplicate key 'id' (first at line 1, column 3)"),
        (#"[{"id":1,"priority":NaN,"action":{"type":"block"},"condition":{}}]"#,
         "rules.json:1:21: [0].priority: invalid json: 'NaN' is not json; numbers must be finite"),
        ("\u{FEFF}[]", "rules.json:1:1: invalid json: byte-order mark at the start; save the file as utf-8 without one"),
        ("[\n  {\"id\": 1,\n   \"action\": {\"type\": \"block\"},,\n   \"condition\": {}}\n]",
         "rules.json:3:32: [0]: invalid json: expected a key in double quotes, found ','"),
        ("", "rules.json:1:1: invalid json: empty input (truncated?)"),
        // Errors found after parsing are located too.
        (#"[{"id":"1","action":{"type":"block"},"condition":{}}]"#, "rules.json:1:8: [0].id: expected an integer"),
        ("[\n{\"id\":1,\n \"condition\":{}}]", "rules.json:2:1: [0].action: missing required key 'action'"),
        (#"[{"id":1,"action":{"type":"block"},"condition":{"urlfilter":"x"}}]"#,
         "rules.json:1:49: [0].condition.urlfilter: unknown key 'urlfilter'; did you mean 'urlFilter'?"),
        (#"{"rules":[]}"#, "rules.json:1:1: top level: Rules file must contain a list."),
    ])
    func ruleFileErrorsNameLineAndColumn(_ json: String, _ expected: String) {
        do {
            _ = try DNRRuleset.decodeRules(from: Data(json.utf8), file: "rules.json")
            Issue.record("expected an error for \(json)")
        } catch let error as InputError {
            #expect(error.description == expected)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func aSyntaxErrorIsReportedBeforeAnEarlierUnknownKey() {
        let json = #"[{"id":1,"oops":2,"action":{"type":"block"},"condition":{}},]"#
        #expect(throws: InputError(file: "r.json", line: 1, column: 60, path: nil, message: "invalid json: trailing comma in an array")) {
            try DNRRuleset.decodeRules(from: Data(json.utf8), file: "r.json")
        }
    }

    @Test func positionKeepsItsOldMeaning() {
        let located = InputError(file: "f.json", line: 2, column: 5, path: "[0].id", message: "m")
        #expect(located.position == "[0].id")
        #expect(InputError(file: "f.json", line: 2, column: 5, path: nil, message: "m").position == "line 2, column 5")
        #expect(InputError(file: "f.json", position: "[0].id", message: "m").description == "f.json: [0].id: m")
    }
}
