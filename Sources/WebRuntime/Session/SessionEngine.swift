import Foundation
import JSKit

/// The part of a session that costs: a context group (virtual machine) with domino and the
/// web-platform layers loaded into its engine realm, and the watchdog on that group. A session
/// makes one, or takes a warm one from an ``EnginePool``: a new session in a warm engine gets new
/// realms for every world, a new event loop, clock and trace, and an engine realm whose
/// per-session state (history, cookies, storage, observers, the browser's hooks) is emptied. No
/// page reaches the engine realm itself (JS/boot/membrane.js), so nothing of it needs restoring.
public final class SessionEngine {
    /// The virtual machine.
    public let group: JSContextGroup
    /// Stops the group's JavaScript past the per-call limit or a deadline; an engine it has
    /// stopped is never used again.
    public let watchdog: ScriptWatchdog
    package let realm: DOMRealm
    /// The engine realm's host functions hold this weakly; the engine keeps it alive, and each
    /// session that uses the engine points it at itself.
    let host: SessionHost
    /// Sessions made in this engine so far.
    public internal(set) var sessions = 0
    /// Set when the session using it left something that cannot be restored, or ended with its
    /// JavaScript stopped: the engine is not reused.
    public internal(set) var unusable: String?
    /// True while a session uses it.
    var inUse = false
    /// What layers above keep per engine rather than per session (the browser's API module),
    /// by key. Their values must not keep a session alive.
    public var attachments: [String: AnyObject] = [:]

    /// Loads domino and the layers into a new context group.
    /// - Throws: ``MissingPackageError`` when node-domino or node-cssom is missing,
    ///   ``JSError`` when the runtime's own scripts fail to load.
    public init() throws {
        ProcessEnvironment.prepare()
        group = JSContextGroup()
        watchdog = ScriptWatchdog(group: group, callLimit: WebSession.Options().scriptTimeLimit)
        watchdog.hostURLPrefixes = WebSession.harnessURLPrefixes
        host = SessionHost()
        realm = try DOMRealm(group: group, host: host)
    }

    /// Makes the engine ready for a new session, or says why it cannot be.
    func begin(callLimit: Double) throws {
        precondition(!inUse, "an engine serves one session at a time")
        if let unusable { throw EngineUnusable(reason: unusable) }
        inUse = true
        sessions += 1
        watchdog.callLimit = callLimit
        watchdog.clearDeadline()
    }

    /// The session using the engine has ended (its pages are closed): the engine realm forgets
    /// the session and restores its intrinsics. Returns why the engine must not be reused, or nil.
    func end() -> String? {
        inUse = false
        host.session = nil
        if unusable != nil { return unusable }
        if let termination = watchdog.termination { unusable = "its JavaScript was stopped (\(termination.reason))"; return unusable }
        // A full collection every 32 sessions: JavaScriptCore's heap otherwise grows for about a
        // hundred small sessions before its policy collects (resident memory rose by some 70 MB
        // over the first 120 runs of a small scenario, then stayed flat, and a run of the suite
        // with two jobs peaked at 333 MB against 243). Every 32 keeps 300 runs within 13 MB of
        // their size after 20; every 16 cost about as much, the allocator's hint alone nothing.
        if sessions % 32 == 0 { realm.context.garbageCollect(synchronous: true) }
        do {
            try realm.endSession()
        } catch {
            unusable = "its engine realm failed to reset: \(error)"
        }
        return unusable
    }
}

/// A warm engine was asked for a session it cannot serve.
struct EngineUnusable: Error, CustomStringConvertible {
    let reason: String
    var description: String { "this engine cannot be reused: \(reason)" }
}

/// Warm engines for sessions to reuse, shared by the threads of a process.
///
/// A session takes an engine (``take()``: an idle warm one, or a new one) and gives it back when
/// it ends (``give(_:)``); the pool keeps it when it can be reused exactly: its session's
/// JavaScript was not stopped, nothing its pages changed is beyond restoring, it has served
/// fewer than ``maximumSessions`` sessions, and the caller says the session passed (a failing
/// scenario's engine is discarded, so that a failure never follows the engine into another).
public final class EnginePool: @unchecked Sendable {
    /// The process's pool. `ADV_ISOLATE=1` in the environment turns reuse off (`--isolate`).
    public static let shared = EnginePool()

    /// Sessions an engine serves before it is replaced: bounds what an engine can accumulate
    /// (the JIT's code, the garbage collector's heap) over a long run.
    public var maximumSessions = 256
    /// Idle engines kept at most (one per worker is enough; more is memory).
    public var maximumIdle = 4
    /// When false, every session makes a new engine and ``give(_:)`` drops it (`--isolate`).
    public var reuses = ProcessInfo.processInfo.environment["ADV_ISOLATE"] != "1"

    private let lock = NSCondition()
    private var idle: [SessionEngine] = []
    /// Engines being made by ``warm(_:)`` now; ``take()`` waits for one rather than make its own.
    private var warming = 0
    private var counts = Counts()

    /// What the pool has done since the process started.
    public struct Counts: Sendable, Equatable {
        /// Engines made.
        public var made = 0
        /// Sessions served by an engine that had served one before.
        public var reused = 0
        /// Engines dropped, by reason.
        public var discarded: [String: Int] = [:]
    }

    public init() {}

    /// What the pool has done so far.
    public var statistics: Counts { lock.withLock { counts } }

    /// An idle warm engine (waiting for one that ``warm(_:)`` is making), or a new one.
    /// - Throws: as ``SessionEngine/init()``.
    public func take() throws -> SessionEngine {
        if reuses {
            lock.lock()
            while idle.isEmpty && warming > 0 { lock.wait() }
            let engine = idle.popLast()
            if engine?.sessions ?? 0 > 0 { counts.reused += 1 }
            lock.unlock()
            if let engine { return engine }
        }
        let engine = try SessionEngine()
        lock.withLock { counts.made += 1 }
        return engine
    }

    /// Starts making `count` engines ahead of need, each on a thread of its own, and returns at
    /// once: the command line warms its workers while it validates the scenario files, and the
    /// first sessions find them warm.
    public func warm(_ count: Int) {
        guard reuses else { return }
        let wanted = lock.withLock { () -> Int in
            let wanted = max(0, min(count, maximumIdle) - idle.count - warming)
            warming += wanted
            return wanted
        }
        for _ in 0..<wanted {
            let thread = Thread { [self] in
                let engine = try? SessionEngine()
                lock.withLock {
                    warming -= 1
                    if let engine { counts.made += 1; idle.append(engine) }
                    lock.broadcast()
                }
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Ends `session` (closes its pages, resets its engine) and returns its engine when it can be
    /// reused; `passed` false (a failed scenario) discards it. Hand the engine back with
    /// ``park(_:)`` once nothing of the session is used any more (its browser released).
    public func retire(_ session: WebSession, passed: Bool = true) -> SessionEngine? {
        let engine = session.engine
        session.closeAllPages()
        var reason = engine.end()
        if reason == nil, !passed { reason = "its scenario failed" }
        if reason == nil, !reuses { reason = "isolation (--isolate)" }
        if reason == nil, engine.sessions >= maximumSessions { reason = "it served \(maximumSessions) sessions" }
        guard let reason else { return engine }
        lock.withLock { counts.discarded[Self.kind(of: reason), default: 0] += 1 }
        return nil
    }

    /// Makes a retired engine available to the next session (kept when fewer than
    /// ``maximumIdle`` are idle).
    public func park(_ engine: SessionEngine) {
        lock.withLock {
            if idle.count < maximumIdle { idle.append(engine) } else { counts.discarded["enough idle", default: 0] += 1 }
        }
    }

    /// Drops the idle engines.
    public func drain() { lock.withLock { idle.removeAll() } }

    private static func kind(of reason: String) -> String {
        String(reason.prefix { $0 != "(" }).trimmingCharacters(in: .whitespaces)
    }
}
