import Foundation
import Testing
import StrictJSON

/// Valid documents parse to the values they spell.
@Suite struct JSONValueTests {
    @Test(arguments: [
        (#""\" \\ \/ \b \f \n \r \t""#, JSONValue.string("\" \\ / \u{8} \u{C} \n \r \t")),
        (#""\u0041\u00e9\u20AC\uD83D\uDE00""#, .string("Aé€😀")),
        (#""é€😀 raw""#, .string("é€😀 raw")),
        (#""""#, .string("")),
        ("0", .number(0)),
        ("-0", .number(-0.0)),
        ("-12.5", .number(-12.5)),
        ("1e2", .number(100)),
        ("1E+2", .number(100)),
        ("-1.5e-3", .number(-0.0015)),
        ("0.5", .number(0.5)),
        ("123456789012345678901234567890", .number(Double("123456789012345678901234567890") ?? 0)),
        ("true", .bool(true)),
        ("false", .bool(false)),
        ("null", .null),
        ("[]", .array([])),
        ("{}", .object([:])),
        (#"{"a":{},"b":[],"c":[{}],"d":[[]]}"#, .object(["a": .object([:]), "b": .array([]), "c": .array([.object([:])]), "d": .array([.array([])])])),
        (" \t\r\n[ 1 ,\t2\n,\r\n3 ]\r\n ", .array([.number(1), .number(2), .number(3)])),
        (#"{ "a" : [ 1 , { "b" : null } ] , "c" : "d" }"#, .object(["a": .array([.number(1), .object(["b": .null])]), "c": .string("d")])),
    ])
    func parses(_ text: String, _ expected: JSONValue) throws {
        #expect(try JSONValue.parse(text) == expected)
        #expect(try JSONValue.parse(Data(text.utf8)) == expected)
    }

    @Test func negativeZeroKeepsItsSign() throws {
        let value = try JSONValue.parse("-0")
        guard case .number(let zero) = value else {
            Issue.record("parsed as \(value)")
            return
        }
        #expect(zero.sign == .minus)
    }

    @Test func agreesWithFoundationOnAFixtureSizedDocument() throws {
        let text = (0..<200).map { #"{"id":"r\#($0)","n":\#($0).25,"tags":["a","\u00e9"],"ok":\#($0 % 2 == 0)}"# }
        let document = "[" + text.joined(separator: ",\n") + "]"
        let mine = try JSONValue.parse(document)
        let theirs = try JSONDecoder().decode(JSONValue.self, from: Data(document.utf8))
        #expect(mine == theirs)
    }

    @Test func canonicalTextSortsKeysAndWritesWholeNumbersPlainly() throws {
        let value = try JSONValue.parse(#"{"b":[1.0,2.5,-0,1e20],"a":"x\"\n/é","c":{"z":null,"y":true}}"#)
        #expect(value.canonical == #"{"a":"x\"\n/é","b":[1,2.5,0,1e+20],"c":{"y":true,"z":null}}"#)
    }

    @Test func codableRoundTripKeepsTheValue() throws {
        let value = try JSONValue.parse(#"{"redirect":{"url":"https://a.example/"},"list":[1,"two",false,null]}"#)
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
        #expect(try JSONValue.parse(data) == value)
    }

    @Test func errorsCanNameTheirFile() {
        do {
            _ = try JSONValue.parse("{\n\"steps\": [1,]\n}")
            Issue.record("parsed a trailing comma")
        } catch {
            #expect(error.with(file: "scenario.json").description == "scenario.json:2:12: steps: trailing comma in an array")
        }
    }
}
