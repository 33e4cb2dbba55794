import Foundation
import TestSupport
import Testing
@testable import RuleStore

@Suite struct SyncEngineTests {
    struct Fixture {
        let database = InMemoryCloudDatabase()
        let clock = VirtualClock(start: 1_000)
        var engine: SyncEngine<InMemoryCloudTransport> {
            let clock = self.clock
            return SyncEngine(
                transport: InMemoryCloudTransport(database: database, clock: clock, latency: 100),
                sleep: { clock.advance(by: $0) })
        }
        func remote() throws -> RuleCollection {
            guard let record = database.storedRecord else { return RuleCollection() }
            return try RuleCodec.decode(record.rules).collection
        }
    }

    static let phone = RuleCollection([Support.rule("p1", selector: ".phone", at: 10)])
    static let laptop = RuleCollection([
        Support.rule("l1", selector: ".laptop", at: 20),
        Support.rule("p1", selector: ".phone", at: 30, deleted: true),
    ])

    @Test func firstSyncCreatesTheRecordAndASecondDeviceMergesIntoIt() async throws {
        let fixture = Fixture()
        let first = try await fixture.engine.sync(Self.phone)
        #expect(first.uploaded)
        #expect(try fixture.remote() == Self.phone)
        let second = try await fixture.engine.sync(Self.laptop)
        #expect(second.merged == Self.phone.merged(with: Self.laptop))
        #expect(second.merged["p1"]?.deleted == true)
        #expect(try fixture.remote() == second.merged)
        // Two calls of 100 virtual ms each per sync, nothing else.
        #expect(fixture.clock.now == 1_000 + 4 * 100)
    }

    @Test func syncWithNothingNewDoesNotUpload() async throws {
        let fixture = Fixture()
        _ = try await fixture.engine.sync(Self.phone)
        let again = try await fixture.engine.sync(Self.phone)
        #expect(!again.uploaded)
        #expect(fixture.database.statistics.commits == 1)
    }

    @Test func conflictReFetchesAndMergesTheOtherDevicesSave() async throws {
        let fixture = Fixture()
        _ = try await fixture.engine.sync(Self.phone)
        fixture.database.failNext(.save, with: .conflict)
        let result = try await fixture.engine.sync(Self.laptop)
        #expect(result.conflicts == 1)
        #expect(result.attempts == 2)
        #expect(try fixture.remote() == Self.phone.merged(with: Self.laptop))
    }

    @Test func networkFailuresAreRetriedWithDoublingBackoff() async throws {
        let fixture = Fixture()
        fixture.database.failNext(.fetch, with: .network)
        fixture.database.failNext(.fetch, with: .network)
        let result = try await fixture.engine.sync(Self.phone)
        #expect(result.attempts == 3)
        // Three fetches and one save at 100 ms, plus waits of 500 and 1,000 ms.
        #expect(fixture.clock.now == 1_000 + 4 * 100 + 500 + 1_000)
    }

    @Test func lostSaveResponseIsHarmless() async throws {
        let fixture = Fixture()
        fixture.database.failNext(.save, with: .lostResponse)
        let result = try await fixture.engine.sync(Self.laptop)
        #expect(!result.uploaded, "the retry finds its own save already in place")
        #expect(fixture.database.statistics.commits == 1)
        #expect(try fixture.remote() == Self.laptop)
    }

    @Test(arguments: [
        (InjectedFault.network, CloudSyncError.networkUnavailable(attempts: 5)),
        (.conflict, .conflictRetriesExhausted(attempts: 5)),
    ])
    func retriesAreBounded(fault: InjectedFault, expected: CloudSyncError) async throws {
        let fixture = Fixture()
        for _ in 0..<20 { fixture.database.failNext(fault == .network ? nil : .save, with: fault) }
        await #expect(throws: expected) { try await fixture.engine.sync(Self.phone) }
    }

    @Test(arguments: [
        (InjectedFault.quotaExceeded, CloudSyncError.quotaExceeded),
        (.accountUnavailable, .accountUnavailable),
    ])
    func accountAndQuotaProblemsStopAtOnceAsTypedErrors(fault: InjectedFault, expected: CloudSyncError) async throws {
        let fixture = Fixture()
        fixture.database.failNext(.save, with: fault)
        await #expect(throws: expected) { try await fixture.engine.sync(Self.phone) }
        #expect(fixture.database.storedRecord == nil)
        #expect(fixture.database.statistics.saves == 1)
        #expect(expected.description == expected.description.lowercased())
    }

    @Test func unreadableCloudRecordIsReportedAndLeftAlone() async throws {
        let fixture = Fixture()
        _ = try fixture.database.save(rules: Data("{\"format\":1}".utf8), expectedTag: nil)
        do {
            _ = try await fixture.engine.sync(Self.phone)
            Issue.record("synced over an unreadable record")
        } catch {
            guard case .remoteRecordInvalid(let reason) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(reason.contains("format"))
        }
        #expect(fixture.database.storedRecord?.rules == Data("{\"format\":1}".utf8))
    }

    @Test func mergedCollectionOverTheLimitIsNotUploaded() async throws {
        let fixture = Fixture()
        let big = RuleCollection((0..<5_000).map {
            Support.rule(String(format: "id-%06d", $0), host: "www.example.com", selector: ".advert-slot-\($0)")
        })
        do {
            _ = try await fixture.engine.sync(big)
            Issue.record("uploaded an oversized collection")
        } catch {
            guard case .collectionTooLarge(let bytes, 500_000) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(bytes > 500_000)
        }
        #expect(fixture.database.statistics.saves == 0)
    }
}
