import TestSupport
import Testing
@testable import RuleStore

@Suite struct SyncSimulationTests {
    static let faultRates: [InjectedFault: Double] = [
        .network: 0.08, .lostResponse: 0.04, .conflict: 0.05, .quotaExceeded: 0.02, .accountUnavailable: 0.02,
    ]

    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8, 0xC0FFEE, 20_261_129])
    func threeDevicesConvergeWithoutLosingADeletion(seed: UInt64) throws {
        var simulation = SyncSimulation(seed: seed)
        simulation.runRandomPhase(actions: 300, faultRates: Self.faultRates)
        simulation.runFinalRounds()
        let context = "seed \(seed); last events:\n" + simulation.log.suffix(25).joined(separator: "\n")

        let remote = try simulation.remote()
        for (index, device) in simulation.devices.enumerated() {
            #expect(device.local == remote, "device \(index) differs from the cloud; \(context)")
        }
        let greatest = simulation.greatestVersions()
        #expect(remote.count == greatest.count, "\(context)")
        var deletions = 0
        for (id, expected) in greatest {
            #expect(remote[id] == expected, "\(id) ended as \(String(describing: remote[id])), expected \(expected); \(context)")
            if expected.deleted { deletions += 1 }
        }
        #expect(remote.tombstoneCount == deletions)
        #expect(deletions > 0, "the history must contain deletions to prove anything")
    }

    /// The random phase really exercises every failure and real conflicts, so the
    /// convergence test above cannot pass by never meeting them.
    @Test func simulationMeetsEveryFaultAndRealConflicts() {
        var faults: [InjectedFault: Int] = [:]
        var errors: [CloudSyncError] = []
        var conflicts = 0
        for seed in [UInt64(1), 2, 3, 4, 5, 6, 7, 8, 0xC0FFEE, 20_261_129] {
            var simulation = SyncSimulation(seed: seed)
            simulation.runRandomPhase(actions: 300, faultRates: Self.faultRates)
            faults.merge(simulation.database.statistics.faults, uniquingKeysWith: +)
            for device in simulation.devices {
                conflicts += device.conflictsResolved
                errors += device.errors
            }
        }
        for fault in InjectedFault.allCases { #expect(faults[fault, default: 0] > 0, "never injected \(fault)") }
        #expect(conflicts > (faults[.conflict] ?? 0), "some conflicts must come from overlapping syncs, not injection")
        // Surfaced to the device as typed values the app can show.
        #expect(errors.contains(.quotaExceeded))
        #expect(errors.contains(.accountUnavailable))
    }
}
