import JSKit
import Testing

/// A script parsed once for a group runs in each of its realms as that realm's own code.
@Suite struct JSScriptTests {
    @Test func oneParseRunsInEveryRealmAsItsOwn() throws {
        let group = JSContextGroup()
        let script = try group.script("(function () { return [typeof marker, Object.getPrototypeOf(function () {}) === Function.prototype]; })", sourceURL: "test:///script.js")
        #expect(try group.script("(function () { return [typeof marker, Object.getPrototypeOf(function () {}) === Function.prototype]; })", sourceURL: "test:///script.js") === script)
        let first = JSContext(group: group), second = JSContext(group: group)
        try first.evaluate("var marker = 1;")
        let inFirst = try script.evaluate(in: first).call()
        let inSecond = try script.evaluate(in: second).call()
        #expect(try inFirst.toJSON() == #"["number",true]"#)
        #expect(try inSecond.toJSON() == #"["undefined",true]"#)
        // The function each evaluation made is its realm's.
        let made = try first.evaluate(hostScript: "(function () {})", sourceURL: "test:///f.js")
        try first.globalObject.set("made", made)
        #expect(try first.evaluate("made instanceof Function").boolValue == true)
    }

    @Test func aSyntaxErrorNamesItsLineAndAThrowIsAnError() throws {
        let group = JSContextGroup()
        #expect {
            _ = try group.script("let ok = 1;\nlet = = 2;", sourceURL: "test:///bad.js")
        } throws: { error in
            guard let error = error as? JSError else { return false }
            return error.name == "SyntaxError" && error.line == 2 && error.sourceURL == "test:///bad.js"
        }
        let context = JSContext(group: group)
        #expect(throws: JSError.self) { try context.evaluate(hostScript: "throw new TypeError('no')", sourceURL: "test:///throw.js") }
    }
}
