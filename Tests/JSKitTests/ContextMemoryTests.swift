import Foundation
import Testing
@testable import JSKit

@Suite struct ContextMemoryTests {
    /// Resident memory in bytes (/proc/self/statm, Linux).
    static func resident() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
              let pages = Int(text.split(separator: " ")[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    @Test func tenThousandContextsKeepMemoryFlat() throws {
        let group = JSContextGroup()
        func churn(_ count: Int) throws {
            for index in 0..<count {
                let context = JSContext(group: group)
                let value = try context.evaluate("({ index: \(index), list: new Array(64).fill('x') })")
                try context.globalObject.set("keep", value)
                _ = context.function("f") { _ in nil }
            }
            JSContext(group: group).garbageCollect(synchronous: true)
        }
        try churn(1_000)  // warm up allocator and JIT
        let before = Self.resident()
        try churn(10_000)
        let after = Self.resident()
        let growth = after - before
        // A leaked global object costs well over 50 KB; 10,000 of them would be > 500 MB.
        #expect(growth < 48 * 1024 * 1024, "resident memory grew by \(growth / 1024) KB over 10,000 contexts")
    }
}
