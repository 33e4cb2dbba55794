import JSKit
import Testing

/// An object that answers for a list of names until each is first read, as a window's interface
/// objects are made only when a script names one.
@Suite struct LazyPropertiesTests {
    /// A realm whose global inherits `front`, in front of the lazy object, in front of
    /// Object.prototype: `resolve` defines what it makes on `front` and counts its calls.
    private func realm() throws -> JSContext {
        let context = JSContext(group: JSContextGroup())
        try context.evaluate("var calls = []; var front = {};")
        let resolve = try context.evaluate("""
            (function (name) {
              calls.push(name);
              if (name === "Broken" && calls.filter((n) => n === name).length === 1) throw new TypeError("not yet");
              const value = { made: name };
              Object.defineProperty(front, name, { value, writable: true, enumerable: false, configurable: true });
              return value;
            })
            """)
        let lazy = context.lazyProperties(className: "WindowProperties", names: ["Alpha", "Beta", "Broken"], resolve: resolve)
        try context.globalObject.set("lazy", lazy)
        try context.evaluate("Object.setPrototypeOf(lazy, Object.prototype); Object.setPrototypeOf(front, lazy);")
        return context
    }

    @Test func aNameIsMadeOnItsFirstReadAndFoundInFrontAfterwards() throws {
        let context = try realm()
        #expect(try context.evaluate("JSON.stringify([front.Alpha, front.Alpha === front.Alpha, calls])").toString() == #"[{"made":"Alpha"},true,["Alpha"]]"#)
        // `in` answers without making anything; an unknown name is simply absent.
        #expect(try context.evaluate("JSON.stringify(['Beta' in front, 'Gamma' in front, front.Gamma, calls])").toString() == #"[true,false,null,["Alpha"]]"#)
        #expect(try context.evaluate("Object.prototype.toString.call(lazy)").toString() == "[object WindowProperties]")
        // The lazy object lists none of its names as its own keys.
        #expect(try context.evaluate("Object.getOwnPropertyNames(lazy).length").toNumber() == 0)
    }

    @Test func aDeletedNameStaysDeletedAndAThrowIsRetried() throws {
        let context = try realm()
        #expect(try context.evaluate("front.Beta; delete front.Beta; JSON.stringify([front.Beta, 'Beta' in front, calls])").toString() == #"[null,false,["Beta"]]"#)
        // The first resolution throws into the script that read the name; the next read tries again.
        #expect(try context.evaluate("try { front.Broken; 'no throw' } catch (e) { e.constructor.name + ': ' + e.message }").toString() == "TypeError: not yet")
        #expect(try context.evaluate("JSON.stringify([front.Broken, calls])").toString() == #"[{"made":"Broken"},["Beta","Broken","Broken"]]"#)
    }

    /// The object keeps `resolve` where the collector sees it, not as a protected value: realms
    /// whose lazy object's resolver refers back to their global are collected with it.
    @Test func aResolverThatReachesItsRealmDoesNotKeepTheRealm() throws {
        let group = JSContextGroup()
        let probe = JSContext(group: group)
        func churn(_ count: Int) throws {
            for _ in 0..<count {
                let context = JSContext(group: group)
                let resolve = try context.evaluate("(function (name) { return globalThis; })")
                let lazy = context.lazyProperties(className: "WindowProperties", names: ["X"], resolve: resolve)
                try context.globalObject.set("holder", lazy)
                _ = try context.evaluate("holder.Y")
            }
            probe.garbageCollect(synchronous: true)
            probe.garbageCollect(synchronous: true)
        }
        try churn(50)
        let before = probe.memoryStatistics()["globalObjectCount"] ?? 0
        try churn(300)
        let after = probe.memoryStatistics()["globalObjectCount"] ?? .infinity
        #expect(after <= before + 10, "\(after - before) realms survive")
    }
}
