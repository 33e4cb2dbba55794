import Testing
@testable import JSKit

@Suite struct JSErrorTests {
    let context = JSContext(group: JSContextGroup())

    @Test func thrownErrorCarriesPositionAndStack() throws {
        let source = """
        function inner() {
          return missing.value;
        }
        function outer() { return inner(); }
        outer();
        """
        let error = #expect(throws: JSError.self) {
            try context.evaluate(source, sourceURL: "https://site.example/app.js", startingLine: 10)
        }
        #expect(error?.name == "ReferenceError")
        #expect(error?.message == "Can't find variable: missing")
        #expect(error?.sourceURL == "https://site.example/app.js")
        #expect(error?.line == 11)
        #expect(error?.column == 17)
        let frames = error?.stack?.split(separator: "\n").map(String.init) ?? []
        #expect(frames.first == "inner@https://site.example/app.js:11:17")
        // JavaScriptCore places a call frame at the call's opening parenthesis.
        #expect(frames.contains("outer@https://site.example/app.js:13:32"))
        #expect(frames.last == "global code@https://site.example/app.js:14:6")
        #expect(error?.location == "https://site.example/app.js:11:17")
    }

    @Test func syntaxErrorNamesTheLine() throws {
        let error = #expect(throws: JSError.self) {
            try context.evaluate("let a = 1;\nlet b = ;\n", sourceURL: "bad.js")
        }
        #expect(error?.name == "SyntaxError")
        #expect(error?.line == 2)
        #expect(error?.sourceURL == "bad.js")
        #expect(throws: JSError.self) { try context.checkSyntax("}", sourceURL: "x.js") }
        try context.checkSyntax("let fine = 1", sourceURL: "x.js")
    }

    @Test func thrownNonErrorsAreDescribed() throws {
        let error = #expect(throws: JSError.self) { try context.evaluate("throw 'plain string'") }
        #expect(error?.message == "plain string")
        #expect(error?.name == "Error")
        // An object that is no error is shown as its value, a symbol as `Symbol(description)`.
        let objectError = #expect(throws: JSError.self) { try context.evaluate("throw { code: 7, why: 'no' }") }
        #expect(objectError?.message == #"{"code":7,"why":"no"}"#)
        #expect(objectError?.description == #"Uncaught: {"code":7,"why":"no"}"#)
        let symbolError = #expect(throws: JSError.self) { try context.evaluate("throw Symbol('boom')") }
        #expect(symbolError?.message == "Symbol(boom)")
        let numberError = #expect(throws: JSError.self) { try context.evaluate("throw 42") }
        #expect(numberError?.message == "42")
        // An error-like object keeps its name and message.
        let errorLike = #expect(throws: JSError.self) { try context.evaluate("throw { name: 'QuotaError', message: 'full' }") }
        #expect(errorLike?.description.hasPrefix("QuotaError: full") == true)
    }

    @Test func errorsRethrownThroughHostFunctionsKeepTheirIdentity() throws {
        let relay = context.function("relay", length: 1) { call in try call.argument(0).call() }
        try context.globalObject.set("relay", relay)
        let result = try context.evaluate("""
            const original = new RangeError("deep");
            try { relay(() => { throw original; }); "not thrown" } catch (e) { e === original }
            """)
        #expect(result.boolValue == true)
    }
}
