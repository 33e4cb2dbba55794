import BlockerCore
import Foundation
import TestSupport
import Testing
@testable import RuleStore

/// The hand-written reader must accept exactly what a JSON parser accepts for this shape.
@Suite struct RuleJSONReaderTests {
    static func document(_ rules: String, extra: String = "") -> String {
        #"{"format":"adv-personal-rules","version":1,"rules":["# + rules + "]" + extra + "}"
    }

    static func decodeError(_ json: String) -> String? {
        do {
            _ = try RuleCodec.decode(Data(json.utf8))
            return nil
        } catch {
            return error.description
        }
    }

    @Test func escapesAndSurrogatePairsDecode() throws {
        let json = Self.document(#"{"id":"a","hostname":"example.com","selector":"a[title=\"\u00e9\\\/\ud83d\ude00\"]\u0041","modifiedAt":1,"deleted":false}"#)
        let rule = try #require(try RuleCodec.decode(Data(json.utf8)).collection["a"])
        #expect(rule.selector == "a[title=\"é\\/😀\"]A")
    }

    @Test func unknownKeysAtAnyDepthAreSkipped() throws {
        let json = Self.document(
            #"{"id":"a","future":{"x":[1,2.5e3,-0.1,true,null,{"y":"z"}]},"hostname":"example.com","selector":".x","modifiedAt":1,"deleted":false}"#,
            extra: #","generator":{"name":"later build","flags":[]}"#)
        #expect(try RuleCodec.decode(Data(json.utf8)).collection.count == 1)
    }

    @Test(arguments: [
        (document(#"{"id":"a","hostname":"example.com","selector":".x","modifiedAt":1.0,"deleted":false}"#),
         "rules[0].modifiedAt: expected an integer, found '1.0'"),
        (document(#"{"id":"a","hostname":"example.com","selector":".x","modifiedAt":01,"deleted":false}"#),
         "not valid json at line 1, column 117: numbers cannot have leading zeros ('01')"),
        (document(#"{"id":"a","hostname":"example.com","selector":".x","modifiedAt":99999999999999999999,"deleted":false}"#),
         "rules[0].modifiedAt: integer '99999999999999999999' is out of range (-9223372036854775808...9223372036854775807)"),
        (document(#"{"id":"a","hostname":"example.com","selector":".x","modifiedAt":1,"deleted":null}"#),
         "rules[0].deleted: expected true or false, found 'null'"),
        (document(#"{"id":"a","hostname":"example.com","selector":".x","modifiedAt":1,"deleted":false},"#),
         "not valid json at line 1, column 135: trailing comma in an array"),
        (document(#"{"id":"a","hostname":"example.com","selector":"\ud800","modifiedAt":1,"deleted":false}"#),
         "not valid json at line 1, column 100: lone surrogate '\\ud800' in a string; \\ud800-\\udfff must come in pairs"),
        (document("") + " x", "not valid json at line 1, column 56: unexpected text after the document: 'x'"),
        ("{\"format\":\"adv-personal-rules\",\n\"version\":1,\n\"rules\":[\n{\"id\":\"a\"", "not valid json at line 4, column 10: unexpected end of input in an object (truncated?)"),
        ("[]", "expected an object, found an array"),
        (#"{"format":"adv-personal-rules","version":1,"rules":{}}"#, "rules: expected an array, found an object"),
        (String(repeating: "[", count: 100), "not valid json at line 1, column 65: nested deeper than 64 levels"),
        (document("", extra: #","x":"# + String(repeating: "[", count: 100)), "not valid json at line 1, column 122: nested deeper than 64 levels"),
        (document(#"{"id":"a","hostname":"example.com","selector":".x","modifiedAt":1,"deleted":false,}"#),
         "not valid json at line 1, column 134: trailing comma in an object"),
        (document(#"{"id":"a","hostname":"example.com","selector":".x","selector":".y","modifiedAt":1,"deleted":false}"#),
         "not valid json at line 1, column 104: duplicate key 'selector' (first at line 1, column 88)"),
        ("{\"format\":\"adv-personal-rules\",\n\"version\":1,\n\"version\":1,\"rules\":[]}",
         "not valid json at line 3, column 1: duplicate key 'version' (first at line 2, column 1)"),
        ("\u{FEFF}" + document(""), "not valid json at line 1, column 1: byte-order mark at the start; save the file as utf-8 without one"),
    ])
    func strictJSONWithPositions(json: String, message: String) {
        #expect(Self.decodeError(json) == message)
    }

    @Test func invalidUTF8IsRefusedWithItsPosition() throws {
        var bytes = Array(Self.document(#"{"id":"a","hostname":"example.com","selector":".X","modifiedAt":1,"deleted":false}"#).utf8)
        let position = try #require(bytes.firstIndex(of: UInt8(ascii: "X")))
        bytes[position] = 0xFF
        #expect(throws: RuleStoreError.invalidDocument(
            file: nil, keyPath: "", reason: "not valid json at line 1, column 101: invalid utf-8 byte 0xff in a string")) {
            try RuleCodec.decode(Data(bytes))
        }
    }

    /// Random strings survive encode → decode, and Foundation's parser reads the same values.
    @Test func randomRecordsRoundTripAndAgreeWithFoundation() throws {
        var rng = SplitMix64(seed: 99)
        let alphabet: [Unicode.Scalar] = ["a", "\"", "\\", "/", "\u{1}", "\t", "é", "€", "😀", "\u{FF5E}", " ", "[", "]"]
        var records: [PersonalRule] = []
        for index in 0..<300 {
            var selector = "."
            for _ in 0..<Int.random(in: 1...12, using: &rng) {
                selector.unicodeScalars.append(alphabet[Int.random(in: 0..<alphabet.count, using: &rng)])
            }
            records.append(Support.rule("r\(index)", selector: selector, at: Int64.random(in: 0...9_007_199_254_740_991, using: &rng)))
        }
        let collection = RuleCollection(records)
        let data = RuleCodec.encode(RuleDocument(collection: collection))
        // The codec rejects control characters in selectors, so compare at the wire level too.
        var reader = RuleJSONReader(Array(data))
        let wire = try reader.readDocument()
        let foundation = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let foundationRules = try #require(foundation["rules"] as? [[String: Any]])
        #expect(wire.rules.count == 300)
        for (mine, theirs) in zip(wire.rules, foundationRules) {
            #expect(mine.selector == theirs["selector"] as? String)
            #expect(mine.modifiedAt == (theirs["modifiedAt"] as? NSNumber)?.int64Value)
            #expect(collection[mine.id]?.selector == mine.selector)
        }
    }
}
