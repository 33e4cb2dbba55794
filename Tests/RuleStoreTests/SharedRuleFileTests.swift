import Foundation
import TestSupport
import Testing
@testable import RuleStore

@Suite struct SharedRuleFileTests {
    @Test func missingFileReadsEmptyAndFirstUpdateCreatesIt() throws {
        let directory = try Support.temporaryDirectory()
        let file = SharedRuleFile(url: directory.appendingPathComponent("rules.json"))
        #expect(try file.read() == RuleDocument())
        #expect(file.state().status == .missing)
        try file.update { $0.collection.upsert(id: "a", hostname: "example.com", selector: ".ad", now: 5) }
        let state = file.state()
        #expect(state.status == .ok)
        #expect(state.liveCount == 1)
        #expect(try file.read().collection["a"]?.selector == ".ad")
        // Only the data file and its lock remain: no temp files left behind.
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names == ["rules.json", "rules.json.lock"])
    }

    @Test func revisionChangesWithEveryWrite() throws {
        let file = SharedRuleFile(url: try Support.temporaryDirectory().appendingPathComponent("rules.json"))
        try file.update { $0.collection.upsert(id: "a", hostname: "example.com", selector: ".ad", now: 5) }
        let first = try #require(file.state().revision)
        try file.update { $0.collection.delete(id: "a", now: 6) }
        let second = try #require(file.state().revision)
        #expect(first != second)
        #expect(file.state().tombstoneCount == 1)
    }

    @Test(arguments: ["", "{\"format\":\"adv-personal-rules\",\"version\":1,\"rules\":[", "garbage"])
    func corruptFileIsReportedAndNeverOverwritten(contents: String) throws {
        let url = try Support.temporaryDirectory().appendingPathComponent("rules.json")
        try Data(contents.utf8).write(to: url)
        let file = SharedRuleFile(url: url)
        #expect(file.state().status == .corrupt)
        #expect(throws: RuleStoreError.self) { try file.read() }
        do {
            try file.update { $0.collection.upsert(id: "a", hostname: "example.com", selector: ".ad", now: 5) }
            Issue.record("update wrote over a corrupt file")
        } catch let error as RuleStoreError {
            guard case .corruptFile(let path, _) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(path == url.path)
            #expect(error.description.contains("left untouched"))
        }
        #expect(try Data(contentsOf: url) == Data(contents.utf8))
    }

    @Test func corruptFileCanBeMovedAsideExplicitly() throws {
        let url = try Support.temporaryDirectory().appendingPathComponent("rules.json")
        try Data("{oops".utf8).write(to: url)
        let file = SharedRuleFile(url: url)
        let aside = try #require(try file.moveAsideCorruptFile())
        #expect(try Data(contentsOf: aside) == Data("{oops".utf8))
        #expect(file.state().status == .missing)
    }

    @Test func overLimitUpdateWritesNothing() throws {
        let url = try Support.temporaryDirectory().appendingPathComponent("rules.json")
        let file = SharedRuleFile(url: url)
        try file.update { $0.collection.upsert(id: "keep", hostname: "example.com", selector: ".ad", now: 1) }
        let before = try Data(contentsOf: url)
        #expect(throws: RuleStoreError.self) {
            try file.update { document in
                for index in 0..<6_000 {
                    document.collection.upsert(
                        id: "bulk-\(index)", hostname: "example.com", selector: ".advert-\(index)", now: 2)
                }
            }
        }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test(arguments: SharedFileWriteStep.allCases)
    func failureAtAnyWriteStepLeavesAWholeVersion(step: SharedFileWriteStep) throws {
        struct Crash: Error {}
        let url = try Support.temporaryDirectory().appendingPathComponent("rules.json")
        try SharedRuleFile(url: url).update {
            $0.collection.upsert(id: "old", hostname: "example.com", selector: ".old", now: 1)
        }
        let crashing = SharedRuleFile(url: url, stepHook: { if $0 == step { throw Crash() } })
        #expect(throws: Crash.self) {
            try crashing.update { $0.collection.upsert(id: "new", hostname: "example.com", selector: ".new", now: 2) }
        }
        let document = try SharedRuleFile(url: url).read()
        let renamed = SharedFileWriteStep.allCases.firstIndex(of: step)! >= SharedFileWriteStep.allCases.firstIndex(of: .renamed)!
        #expect(document.collection["old"] != nil)
        #expect((document.collection["new"] != nil) == renamed)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
            .filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
    }

    @Test func staleTempFilesFromACrashedWriterAreSwept() throws {
        let directory = try Support.temporaryDirectory()
        let url = directory.appendingPathComponent("rules.json")
        let stale = directory.appendingPathComponent(".rules.json.tmp-99999-1")
        try Data("half".utf8).write(to: stale)
        try SharedRuleFile(url: url).update {
            $0.collection.upsert(id: "a", hostname: "example.com", selector: ".ad", now: 1)
        }
        #expect(!FileManager.default.fileExists(atPath: stale.path))
    }

    /// Several processes hammer one file; every add and remove must survive.
    @Test(.timeLimit(.minutes(5)))
    func processesAddingAndRemovingConcurrentlyLoseNoUpdate() throws {
        let worker = try #require(
            HelperExecutable.locate("adv-rulefile-worker"),
            "build the helper first: swift build --product adv-rulefile-worker")
        let url = try Support.temporaryDirectory().appendingPathComponent("rules.json")
        let workers = 4, operations = 500, seed: UInt64 = 42
        let running = try (0..<workers).map { index in
            try HelperExecutable.start(worker, ["stress", url.path, "\(index)", "\(operations)", "\(seed)"])
        }
        for (process, errors) in running {
            process.waitUntilExit()
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationStatus == 0, "\(message)")
        }
        var expectedLive = Set<String>(), expectedDeleted = Set<String>()
        for index in 0..<workers {
            for operation in SharedFileStress.plan(worker: index, operations: operations, seed: seed) {
                switch operation {
                case .add(let id): expectedLive.insert(id)
                case .remove(let id): expectedLive.remove(id); expectedDeleted.insert(id)
                }
            }
        }
        let collection = try SharedRuleFile(url: url).read().collection
        #expect(Set(collection.liveRules.map(\.id)) == expectedLive)
        #expect(Set(collection.records.filter(\.deleted).map(\.id)) == expectedDeleted)
        #expect(collection.count == workers * operations - expectedDeleted.count)
    }
}
