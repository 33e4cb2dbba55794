import Foundation
import ScenarioKit
import TestSupport
import Testing
import WebRuntime

/// A warm engine hands nothing of one scenario to the next (issue 19, points 1-3): the probes of
/// fixtures/isolation, run in one engine in both orders, give the reader the trace it has in an
/// engine of its own, and an engine that cannot be restored is not used again.
@Suite struct EngineReuseTests {
    static func probe(_ name: String) throws -> Scenario {
        try Support.catalog.scenario(at: Support.packageRoot.appendingPathComponent("fixtures/isolation/\(name).json"))
    }

    /// A pool of one engine, so that consecutive runs share it.
    static func pool(reusing: Bool = true) -> EnginePool {
        let pool = EnginePool()
        pool.maximumIdle = 1
        pool.reuses = reusing
        return pool
    }

    @Test func theReaderSeesTheSameInEitherOrderAsInAnEngineOfItsOwn() throws {
        let writer = try Self.probe("writer"), reader = try Self.probe("reader")
        let alone = ScenarioRunner.run(reader, pool: Self.pool(reusing: false))
        #expect(alone.failures.isEmpty, "\(alone.failures)")
        // What a fresh engine shows: nothing of any other scenario.
        #expect(alone.trace.contains(#"{"nodeListIteration":2,"domError":"SyntaxError undefined","urlError":"TypeError undefined","objectPrototype":"undefined","functionPrototype":"undefined","htmlElement":"function","windowGlobal":"undefined","clock":1767225600000,"elementPrototype":"undefined","engine":"undefined,,","cookie":"","localStorage":0,"sessionStorage":0,"history":"1 / null","customElement":"undefined"}"#), "\(alone.trace)")

        let writerFirst = Self.pool()
        let written = ScenarioRunner.run(writer, pool: writerFirst)
        #expect(written.failures.isEmpty, "\(written.failures)")
        #expect(written.trace.contains("writer done"), "\(written.trace)")
        let afterWriter = ScenarioRunner.run(reader, pool: writerFirst)
        #expect(writerFirst.statistics.made == 1 && writerFirst.statistics.reused == 1, "the reader ran in the writer's engine: \(writerFirst.statistics)")
        #expect(afterWriter.trace == alone.trace)

        let readerFirst = Self.pool()
        let first = ScenarioRunner.run(reader, pool: readerFirst)
        _ = ScenarioRunner.run(writer, pool: readerFirst)
        let again = ScenarioRunner.run(reader, pool: readerFirst)
        #expect(readerFirst.statistics.made == 1 && readerFirst.statistics.reused == 2, "\(readerFirst.statistics)")
        #expect(first.trace == alone.trace)
        #expect(again.trace == alone.trace)
    }

    /// A page that freezes its prototypes froze its own world's: the engine is reused, and the
    /// next scenario in it sees what it sees alone.
    @Test func anEngineAPageFrozeSomethingInIsReusedUnchanged() throws {
        let alone = ScenarioRunner.run(try Self.probe("reader"), pool: Self.pool())
        let pool = Self.pool()
        let frozen = ScenarioRunner.run(try Self.probe("freezer"), pool: pool)
        #expect(frozen.failures.isEmpty, "\(frozen.failures)")
        let reader = ScenarioRunner.run(try Self.probe("reader"), pool: pool)
        #expect(reader.failures.isEmpty)
        #expect(reader.trace == alone.trace)
        #expect(pool.statistics.made == 1 && pool.statistics.reused == 1, "\(pool.statistics)")
        #expect(pool.statistics.discarded.isEmpty, "\(pool.statistics)")
    }

    @Test func aFailedScenariosEngineIsDiscarded() throws {
        let pool = Self.pool()
        let failing = try Support.catalog.scenario(at: Support.packageRoot.appendingPathComponent("fixtures/hostile/click-loop.json"))
        #expect(!ScenarioRunner.run(failing, pool: pool).failures.isEmpty)
        #expect(ScenarioRunner.run(try Self.probe("reader"), pool: pool).failures.isEmpty)
        #expect(pool.statistics.made == 2, "\(pool.statistics)")
        #expect(pool.statistics.discarded.keys.sorted() == ["its JavaScript was stopped"], "\(pool.statistics)")
    }

    @Test func anEngineServesAtMostItsShareOfSessions() throws {
        let pool = Self.pool()
        pool.maximumSessions = 3
        let reader = try Self.probe("reader")
        for _ in 0..<7 { #expect(ScenarioRunner.run(reader, pool: pool).failures.isEmpty) }
        #expect(pool.statistics.made == 3 && pool.statistics.reused == 4, "\(pool.statistics)")
        #expect(pool.statistics.discarded == ["it served 3 sessions": 2], "\(pool.statistics)")
    }

    /// Runs `body` on a thread of its own and waits for it. JavaScriptCore scans every stack of a
    /// thread that entered the group conservatively, so a word a finished session left in a live
    /// frame can keep a realm of it alive for a while; a thread that has ended holds nothing.
    static func onThreadOfItsOwn<T>(_ body: @escaping () throws -> T) throws -> T {
        let box = ThreadResult<T>(body)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.result = Result { try box.body() }
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
        done.wait()
        // The thread is still alive between its signal and its end, and a collection scans the
        // stack of every live thread that entered the group: wait for it to be gone.
        while !thread.isFinished { usleep(1_000) }
        return try box.result!.get()
    }

    /// A warm engine keeps nothing of the sessions it served: after a full collection its heap
    /// holds the engine realm (and at most the last session's worlds) and as many protected
    /// values after 60 sessions as after 20. (Each world's unhandled-rejection callback, made in the world, once
    /// kept the world alive through the global object's strong handle: three realms and about
    /// 850 KB a scenario.) The sessions run on one thread and the collection on another that
    /// ran none of them, so that no stale word on a stack holds a session's realm.
    @Test func aWarmEngineKeepsNothingOfItsSessions() throws {
        let pool = Self.pool()
        pool.maximumSessions = 1_000
        let scenario = try Support.catalog.scenario(at: Support.catalog.scenariosFolder.appendingPathComponent("cosmetic/builtin-hiding.json"))
        func heap(after runs: Int) throws -> [String: Double] {
            let failures = try Self.onThreadOfItsOwn {
                (0..<runs).flatMap { _ in ScenarioRunner.run(scenario, pool: pool).failures }
            }
            #expect(failures.isEmpty, "\(failures)")
            return try Self.onThreadOfItsOwn {
                let engine = try pool.take()
                defer { pool.park(engine) }
                // A dead world is freed in steps: a collection sweeps the wrapper objects, their
                // finalizers release the Swift values that protected the world's objects, and only
                // the next collection can free the world. So collect until the count settles; a
                // leak survives any number of collections.
                var counts: [String: Double] = [:]
                for _ in 0..<8 {
                    engine.realm.context.garbageCollect(synchronous: true)
                    let now = engine.realm.context.memoryStatistics()
                    if now["globalObjectCount"] == counts["globalObjectCount"], now["protectedObjectCount"] == counts["protectedObjectCount"] { break }
                    counts = now
                }
                return counts
            }
        }
        let early = try heap(after: 20)
        let late = try heap(after: 40)
        #expect(pool.statistics.made == 1)
        // Nothing accumulates: at most the last session's two worlds beside the engine realm (in a
        // loaded full `swift test` they sometimes outlive one collection, with the two values
        // that hold them, and are gone at a later one), and as many protected values after 60
        // sessions as after 20, give or take those two. The leak this guards against kept three
        // realms a session.
        for counts in [early, late] { #expect((counts["globalObjectCount"] ?? 99) <= 3, "\(early) \(late)") }
        #expect(abs((late["protectedObjectCount"] ?? 999) - (early["protectedObjectCount"] ?? 0)) <= 2, "\(early) \(late)")
        let growth = (late["heapSize"] ?? 0) - (early["heapSize"] ?? 0)
        #expect(growth < 2_000_000, "the engine's heap grew by \(Int(growth)) bytes over 40 sessions")
    }
}

/// What a thread of its own returned, for the thread that waited for it.
private final class ThreadResult<T>: @unchecked Sendable {
    let body: () throws -> T
    var result: Result<T, Error>?
    init(_ body: @escaping () throws -> T) { self.body = body }
}
