import BlockerCore
import Foundation
import RuleStore

/// Three (or more) devices editing offline and online and syncing through one fake
/// cloud record, on a virtual timeline where any device can act between another
/// device's fetch and save.
///
/// Each sync request takes a random latency: it reaches the database halfway and the
/// answer arrives at the end, so real conflicts happen whenever two syncs overlap.
package struct SyncSimulation {
    package struct Device {
        package var local = RuleCollection()
        package var skew: Int64
        package var online = true
        package var session: SyncSession?
        package var errors: [CloudSyncError] = []
        package var conflictsResolved = 0
    }

    enum Event {
        case userAction(device: Int)
        case requestArrives(device: Int, SyncSession.Request)
        case respond(device: Int, SyncSession.Response)
    }

    let seed: UInt64
    var rng: SplitMix64
    var now: Int64 = 0
    package var devices: [Device]
    package let database = InMemoryCloudDatabase()
    /// Every version any device ever wrote, for the no-lost-update check.
    var versions: [PersonalRule] = []
    package var log: [String] = []
    private var queue: [(time: Int64, order: Int, event: Event)] = []
    private var order = 0
    private var nextID = 0

    package init(seed: UInt64, devices count: Int = 3) {
        self.seed = seed
        rng = SplitMix64(seed: seed)
        devices = []
        for _ in 0..<count { devices.append(Device(skew: Int64.random(in: -3_000...3_000, using: &rng))) }
    }

    mutating func schedule(_ event: Event, at time: Int64) {
        order += 1
        let entry = (time: time, order: order, event: event)
        let index = queue.firstIndex { ($0.time, $0.order) > (time, order) } ?? queue.endIndex
        queue.insert(entry, at: index)
    }

    /// Runs `actions` random user actions spread over the timeline, with random faults.
    package mutating func runRandomPhase(actions: Int, faultRates: [InjectedFault: Double]) {
        database.setRandomFaults(seed: seed ^ 0xFA17, rates: faultRates)
        var time: Int64 = 0
        for _ in 0..<actions {
            time += Int64.random(in: 0...400, using: &rng)
            schedule(.userAction(device: Int.random(in: 0..<devices.count, using: &rng)), at: time)
        }
        runUntilIdle()
    }

    /// Everyone online, no faults, every device syncs in turn, twice round (as the spec advises).
    package mutating func runFinalRounds() {
        database.setRandomFaults(seed: 0, rates: [:])
        for index in devices.indices { devices[index].online = true }
        for _ in 0..<2 {
            for index in devices.indices {
                startSync(index)
                runUntilIdle()
            }
        }
    }

    mutating func runUntilIdle() {
        while !queue.isEmpty {
            let (time, _, event) = queue.removeFirst()
            now = max(now, time)
            switch event {
            case .userAction(let device): userAction(device)
            case .requestArrives(let device, let request): serve(device, request)
            case .respond(let device, let response): deliver(device, response)
            }
        }
    }

    private mutating func userAction(_ index: Int) {
        let stamp = now + devices[index].skew + 1_700_000_000_000
        let live = devices[index].local.liveRules
        switch Int.random(in: 0..<10, using: &rng) {
        case 0...2:
            nextID += 1
            let rule = devices[index].local.upsert(
                id: "d\(index)-\(nextID)", hostname: "site\(Int.random(in: 0..<4, using: &rng)).example",
                selector: ".ad-\(Int.random(in: 0..<50, using: &rng))", now: stamp)
            versions.append(rule)
            log.append("t=\(now) device \(index) adds \(rule.id)")
        case 3 where !live.isEmpty:
            let target = live[Int.random(in: 0..<live.count, using: &rng)]
            let rule = devices[index].local.upsert(
                id: target.id, hostname: target.hostname, selector: ".ad-\(Int.random(in: 0..<50, using: &rng))",
                now: stamp)
            versions.append(rule)
            log.append("t=\(now) device \(index) edits \(rule.id)")
        case 4...5 where !live.isEmpty:
            let target = live[Int.random(in: 0..<live.count, using: &rng)]
            if let tombstone = devices[index].local.delete(id: target.id, now: stamp) {
                versions.append(tombstone)
                log.append("t=\(now) device \(index) deletes \(target.id)")
            }
        case 6:
            devices[index].online.toggle()
            log.append("t=\(now) device \(index) goes \(devices[index].online ? "online" : "offline")")
        default:
            startSync(index)
        }
    }

    private mutating func startSync(_ index: Int) {
        guard devices[index].session == nil else { return }
        log.append("t=\(now) device \(index) starts a sync")
        devices[index].session = SyncSession(local: devices[index].local)
        deliver(index, .start)
    }

    private mutating func deliver(_ index: Int, _ response: SyncSession.Response) {
        guard var session = devices[index].session else { return }
        let step = session.next(response)
        devices[index].session = session
        switch step {
        case .perform(.wait(let milliseconds)):
            schedule(.respond(device: index, .waited), at: now + milliseconds)
        case .perform(let request):
            if !devices[index].online {
                let failure: SyncSession.Response =
                    request == .fetch ? .fetched(.failure(.network)) : .saved(.failure(.network))
                schedule(.respond(device: index, failure), at: now + 1)
            } else {
                schedule(.requestArrives(device: index, request), at: now + Int64.random(in: 5...150, using: &rng))
            }
        case .finished(let result):
            devices[index].local = devices[index].local.merged(with: result.merged)
            devices[index].session = nil
            devices[index].conflictsResolved += result.conflicts
            log.append("t=\(now) device \(index) synced (uploaded \(result.uploaded), conflicts \(result.conflicts))")
        case .failed(let error):
            devices[index].errors.append(error)
            devices[index].session = nil
            log.append("t=\(now) device \(index) sync failed: \(error)")
        }
    }

    private mutating func serve(_ index: Int, _ request: SyncSession.Request) {
        let response: SyncSession.Response
        switch request {
        case .fetch:
            do { response = .fetched(.success(try database.fetch())) } catch { response = .fetched(.failure(error)) }
        case .save(let rules, let tag):
            do {
                response = .saved(.success(try database.save(rules: rules, expectedTag: tag)))
            } catch {
                response = .saved(.failure(error))
            }
        case .wait:
            return
        }
        schedule(.respond(device: index, response), at: now + Int64.random(in: 5...150, using: &rng))
    }

    /// The cloud's collection.
    package func remote() throws -> RuleCollection {
        guard let record = database.storedRecord else { return RuleCollection() }
        return try RuleCodec.decode(record.rules).collection
    }

    /// For each id, the version that should win: the greatest ever written.
    package func greatestVersions() -> [String: PersonalRule] {
        var greatest: [String: PersonalRule] = [:]
        for version in versions {
            if let known = greatest[version.id], !version.supersedes(known) { continue }
            greatest[version.id] = version
        }
        return greatest
    }
}
