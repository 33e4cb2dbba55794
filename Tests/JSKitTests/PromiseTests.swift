import Testing
@testable import JSKit

@Suite struct PromiseTests {
    let context = JSContext(group: JSContextGroup())

    @Test func swiftResultSettlesJavaScriptPromise() throws {
        let deferred = try JSDeferred(in: context)
        try context.globalObject.set("answer", deferred.promise)
        try context.evaluate("var got = 'pending'; answer.then(v => { got = 'value ' + v; }, e => { got = 'error ' + e.message; });")
        #expect(try context.evaluate("got").stringValue == "pending")
        deferred.resolve(context.number(42))
        // The reaction ran in the microtask checkpoint that ends the resolve call.
        #expect(try context.evaluate("got").stringValue == "value 42")
        deferred.reject(message: "too late")
        #expect(try context.evaluate("got").stringValue == "value 42")
        #expect(deferred.isSettled)
    }

    @Test func rejectionReachesScript() throws {
        let deferred = try JSDeferred(in: context)
        try context.globalObject.set("p", deferred.promise)
        try context.evaluate("var seen; p.catch(e => { seen = e.message; });")
        deferred.reject(message: "quota exceeded")
        #expect(try context.evaluate("seen").stringValue == "quota exceeded")
    }

    @Test func swiftObservesJavaScriptPromises() throws {
        let resolved = try PromiseObserver(try context.evaluate("Promise.resolve(7)"))
        guard case let .fulfilled(value) = resolved.outcome else { Issue.record("not fulfilled"); return }
        #expect(value.numberValue == 7)

        let rejected = try PromiseObserver(try context.evaluate("Promise.reject(new TypeError('no'))"))
        guard case let .rejected(reason) = rejected.outcome else { Issue.record("not rejected"); return }
        let error = JSError(thrown: reason)
        #expect(error.name == "TypeError")
        #expect(error.message == "no")

        try context.evaluate("var release; var later = new Promise(r => { release = r; });")
        let pending = try PromiseObserver(context.globalObject["later"])
        #expect(!pending.isSettled)
        try context.evaluate("release('now')")
        guard case let .fulfilled(now) = pending.outcome else { Issue.record("not settled"); return }
        #expect(now.stringValue == "now")

        let plain = try PromiseObserver(context.number(3))
        #expect(plain.isSettled)
    }
}
