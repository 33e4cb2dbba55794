import Foundation
import Testing
@testable import JSKit

@Suite struct ContextMemoryTests {
    @Test func tenThousandContextsKeepMemoryFlat() throws {
        let group = JSContextGroup()
        let probe = JSContext(group: group)
        func churn(_ count: Int) throws {
            for index in 0..<count {
                let context = JSContext(group: group)
                let value = try context.evaluate("({ index: \(index), list: new Array(64).fill('x') })")
                try context.globalObject.set("keep", value)
                _ = context.function("f") { _ in nil }
            }
            probe.garbageCollect(synchronous: true)
        }
        try churn(1_000)  // warm up allocator and JIT
        let before = probe.memoryStatistics()
        let residentBefore = ProcessMemory.residentBytes()
        try churn(10_000)
        let after = probe.memoryStatistics()
        let residentGrowth = ProcessMemory.residentBytes() - residentBefore
        // The group's own heap: released realms are collected, so global objects and heap size
        // stay where they were (this is per group, unaffected by tests running beside it).
        let globals = after["globalObjectCount"] ?? .infinity
        #expect(globals <= (before["globalObjectCount"] ?? 0) + 2, "\(globals) global objects survive")
        let heapGrowth = (after["heapSize"] ?? .infinity) - (before["heapSize"] ?? 0)
        #expect(heapGrowth < 4 * 1024 * 1024, "heap grew by \(Int(heapGrowth) / 1024) KB")
        let capacityGrowth = (after["heapCapacity"] ?? .infinity) - (before["heapCapacity"] ?? 0)
        #expect(capacityGrowth < 16 * 1024 * 1024, "heap capacity grew by \(Int(capacityGrowth) / 1024) KB")
        // Process memory is only a coarse bound: other tests run in the same process at the same
        // time, so it moves with them; 10,000 leaked realms would still exceed it several times.
        #expect(residentGrowth < 768 * 1024 * 1024, "resident memory grew by \(residentGrowth / 1024) KB")
    }
}

extension ContextMemoryTests {
    /// The group goes with its last context and value, and its heap with it: host functions'
    /// closures are released then (their objects are finalized as the virtual machine is torn
    /// down), even those never collected before.
    @Test func aGroupIsFreedWithItsLastContextAndReleasesHostClosures() throws {
        final class Token {}
        weak var group: JSContextGroup?
        weak var context: JSContext?
        weak var token: Token?
        do {
            let made = JSContextGroup()
            let realm = JSContext(group: made)
            let other = JSContext(group: made)
            let held = Token()
            let function = realm.function("f") { call in
                _ = held
                return call.context.undefined
            }
            try realm.globalObject.set("f", function)
            // A value of one realm kept in another: both realms stay reachable from each other.
            try other.globalObject.set("kept", try realm.evaluate("({ f, list: [1, 2, 3] })"))
            try realm.globalObject.set("other", other.globalObject)
            _ = try other.evaluate("kept.f()")
            group = made
            context = realm
            token = held
        }
        #expect(context == nil)
        #expect(group == nil)
        #expect(token == nil)
    }
}
