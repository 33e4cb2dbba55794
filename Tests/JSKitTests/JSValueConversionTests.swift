import Testing
@testable import JSKit

@Suite struct JSValueConversionTests {
    let context = JSContext(group: JSContextGroup())

    @Test func primitivesRoundTrip() throws {
        #expect(try context.string("héllo \u{0}wörld 🎉").toString() == "héllo \u{0}wörld 🎉")
        #expect(context.number(-0.5).numberValue == -0.5)
        #expect(context.boolean(true).boolValue == true)
        #expect(context.null.isNull)
        #expect(context.undefined.isUndefined)
        #expect(try context.evaluate("typeof null").stringValue == "object")
        #expect(context.null.typeOf == "object")
        #expect(try context.evaluate("Symbol('s')").typeOf == "symbol")
    }

    @Test(arguments: [
        ("1 + 1", "number"), ("'a' + 1", "string"), ("[1,2]", "object"), ("(() => 1)", "function"),
        ("undefined", "undefined"), ("10n", "bigint"), ("true", "boolean"),
    ])
    func typeOfMatchesJavaScript(source: String, expected: String) throws {
        let value = try context.evaluate(source)
        #expect(value.typeOf == expected)
        #expect(try context.evaluate("typeof (\(source))").stringValue == expected)
    }

    @Test func swiftValuesBecomeJavaScript() throws {
        let value = try context.value(["name": "ad", "sizes": [300, 250], "on": true, "none": nil] as [String: Any?])
        try context.globalObject.set("v", value)
        #expect(try context.evaluate("JSON.stringify(v)").stringValue == #"{"name":"ad","none":null,"on":true,"sizes":[300,250]}"#)
        #expect(try context.evaluate("Array.isArray(v.sizes) && v.sizes[1] === 250").boolValue == true)
    }

    @Test func javaScriptValuesBecomeSwift() throws {
        let value = try context.evaluate("({ a: [1, 'two', null, { b: false }], c: undefined })")
        let swift = try #require(try value.toSwift() as? [String: Any?])
        let list = try #require(swift["a"] as? [Any?])
        #expect(list[0] as? Double == 1)
        #expect(list[1] as? String == "two")
        #expect(list[2] == nil)
        #expect((list[3] as? [String: Any?])?["b"] as? Bool == false)
        #expect(swift.keys.contains("c"))
    }

    @Test func cyclicValuesAreRejectedNotLooped() throws {
        let value = try context.evaluate("const o = {}; o.self = o; o")
        #expect(throws: JSError.self) { try value.toSwift() }
        #expect(throws: JSError.self) { try value.toJSON() }
    }

    @Test func jsonBothWays() throws {
        let parsed = try context.parseJSON(#"{"x":[1,2,{"y":"z"}]}"#)
        #expect(try parsed.toJSON() == #"{"x":[1,2,{"y":"z"}]}"#)
        #expect(try context.evaluate("(function(){})").toJSON() == nil)
        let error = #expect(throws: JSError.self) { try context.parseJSON("{nope") }
        #expect(error?.name == "SyntaxError")
    }

    @Test func propertiesCallsAndConstructors() throws {
        let object = context.object()
        try object.set("n", context.number(2))
        #expect(object["n"].numberValue == 2)
        #expect(object.hasProperty("n"))
        #expect(try object.deleteProperty("n"))
        #expect(object["n"].isUndefined)
        let math = context.globalObject["Math"]
        #expect(try math.invoke("max", [context.number(3), context.number(9)]).numberValue == 9)
        let date = try context.globalObject["Array"].construct([context.number(3)])
        #expect(date["length"].numberValue == 3)
        #expect(try date.isInstance(of: context.globalObject["Array"]))
        #expect(throws: JSError.self) { try context.number(1).call() }
        #expect(throws: JSError.self) { try context.null.property("x") }
    }
}
