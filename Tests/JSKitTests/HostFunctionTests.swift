import Testing
@testable import JSKit

@Suite struct HostFunctionTests {
    let context = JSContext(group: JSContextGroup())

    @Test func hostFunctionReceivesThisAndArguments() throws {
        var seen: [String] = []
        let record = context.function("record", length: 2) { call in
            seen.append(try call.arguments.map { try $0.toString() }.joined(separator: ","))
            return call.context.number(Double(call.arguments.count))
        }
        try context.globalObject.set("record", record)
        #expect(try context.evaluate("record('a', 1, true)").numberValue == 3)
        #expect(try context.evaluate("record.call(null, 'b')").numberValue == 1)
        #expect(try context.evaluate("record.bind(null, 'c')('d')").numberValue == 2)
        #expect(seen == ["a,1,true", "b", "c,d"])
        #expect(try context.evaluate("typeof record").stringValue == "function")
        #expect(try context.evaluate("record.name").stringValue == "record")
        #expect(try context.evaluate("record.length").numberValue == 2)
        #expect(try context.evaluate("record instanceof Function").boolValue == true)
    }

    @Test func swiftErrorsBecomeJavaScriptExceptions() throws {
        struct Refused: Error, CustomStringConvertible { var description: String { "refused by host" } }
        try context.globalObject.set("fail", context.function("fail") { _ in throw Refused() })
        try context.globalObject.set("typed", context.function("typed") { _ in throw JSError(name: "TypeError", message: "bad argument") })
        #expect(try context.evaluate("try { fail() } catch (e) { e instanceof Error && e.message }").stringValue == "refused by host")
        #expect(try context.evaluate("try { typed() } catch (e) { e.name + ': ' + e.message }").stringValue == "TypeError: bad argument")
    }

    @Test func closuresAreReleasedWhenFunctionsAreCollected() throws {
        final class Counter { var released = 0 }
        final class Token {
            let counter: Counter
            init(_ counter: Counter) { self.counter = counter }
            deinit { counter.released += 1 }
        }
        let counter = Counter()
        func makeGarbage() {
            for _ in 0..<500 {
                let token = Token(counter)
                _ = context.function("holder") { _ in _ = token; return nil }
            }
        }
        makeGarbage()
        for _ in 0..<3 { context.garbageCollect(synchronous: true) }
        // The collector scans the stack conservatively, so a stray word may pin one or two.
        #expect(counter.released >= 490, "finalize released only \(counter.released) of 500 closures")
    }

    @Test func hostObjectPayloadAndPropertyHooks() throws {
        final class Store { var values: [String: Double] = ["a": 1] }
        let store = Store()
        let object = context.hostObject(
            payload: store,
            get: { context, name in store.values[name].map { context.number($0) } },
            set: { _, name, value in
                guard let number = value.numberValue else { return false }
                store.values[name] = number
                return true
            })
        try context.globalObject.set("store", object)
        #expect(try context.evaluate("store.a + 1").numberValue == 2)
        try context.evaluate("store.b = 41; store.label = 'kept by JS'")
        #expect(store.values["b"] == 41)
        #expect(store.values["label"] == nil)
        #expect(try context.evaluate("store.label").stringValue == "kept by JS")
        #expect(object.hostPayload === store)
        #expect(context.object().hostPayload == nil)
    }
}
