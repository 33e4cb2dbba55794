import Foundation
import Testing
import TestSupport

/// A long run keeps its memory flat (issue 18, point 8): `adv-harness run --repeat-each 300
/// --log-memory` in a process of its own, so that what the tests running beside this one
/// allocate is not counted.
@Suite struct LongRunMemoryTests {
    /// The cheapest shipped scenario: one page, the background, no popup.
    static let cheap = "fixtures/scenarios/runtime/notes-permission-denied.json"

    /// Once the first 20 runs have warmed the allocators, the JIT and the caches, resident
    /// memory grows by at most 50 MB over the next 280 (when every run kept its session, about
    /// 12 MB each, it grew by over 3 GB).
    @Test func threeHundredRunsInOneProcessKeepResidentMemoryFlat() throws {
        let executable = try #require(HelperExecutable.locate("adv-harness"), "the adv-harness executable is built with the tests")
        let file = Support.packageRoot.appendingPathComponent(Self.cheap).path
        let result = try HelperExecutable.run(executable, ["run", file, "--repeat-each", "300", "--log-memory"])
        #expect(result.status == 0, "\(result.out.suffix(2000))\(result.err)")
        // "PASS  runtime/notes-permission-denied #20  virtual 0.1s  wall 70ms  rss 96 MB"
        var resident: [Int: Int] = [:]
        for line in result.out.split(separator: "\n") where line.hasPrefix("PASS") {
            let words = line.split(separator: " ")
            guard let mark = words.first(where: { $0.hasPrefix("#") }), let run = Int(mark.dropFirst()),
                  let rss = words.firstIndex(of: "rss").flatMap({ Int(words[$0 + 1]) }) else { continue }
            resident[run] = rss
        }
        #expect(resident.count == 300, "\(result.out.suffix(2000))")
        let (afterTwenty, atTheEnd) = (try #require(resident[20]), try #require(resident[300]))
        #expect(atTheEnd - afterTwenty <= 50, "resident memory grew from \(afterTwenty) MB after run 20 to \(atTheEnd) MB after run 300")
    }
}
