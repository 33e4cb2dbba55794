import JSKit

/// The virtual clock and the task queue every page, world and mock of a session shares.
///
/// Swift owns time: the clock moves only when the loop runs a task due later than now. Tasks run
/// in due-time order, ties in phase then scheduling order (``LoopTask/runsBefore(_:)``).
/// Microtasks need no queue here: JavaScriptCore drains its promise-job queue when each call
/// from Swift into JavaScript returns, which is exactly "a microtask checkpoint after every task".
public final class EventLoop {
    /// The current virtual time.
    public private(set) var now: VirtualTime = .zero
    /// How many tasks have run since the loop was made.
    public private(set) var tasksRun = 0

    private var heap = TaskHeap()
    private var cancelled: Set<TaskID> = []
    private var nextSequence: UInt64 = 0
    /// The task being run, if any (timers read its nesting level).
    var currentTask: TaskID?

    /// Safety limit: a loop that runs this many tasks without going idle is reported, not hung.
    public var maximumTasksPerRun = 2_000_000

    /// Timers, keyed by owner (page) then id; see EventLoop+Timers.swift.
    var timers: [Int: [Int: TimerRecord]] = [:]
    var nextTimerID: [Int: Int] = [:]
    var timerNesting: [TaskID: Int] = [:]
    /// Receives exceptions thrown by timer and frame callbacks: (owner, error, what ran).
    public var errorHandler: ((Int?, JSErrorReport) -> Void)?
    /// Animation frame callbacks per owner; see EventLoop+Frames.swift.
    var frameCallbacks: [Int: [(id: Int, callback: FrameCallback)]] = [:]
    /// Rendering steps after the animation frame callbacks (ResizeObserver), per owner.
    var renderingSteps: [Int: [FrameCallback]] = [:]
    var nextFrameID: [Int: Int] = [:]
    var frameTask: TaskID?
    /// `performance.timeOrigin` of each owner in virtual milliseconds, for frame timestamps.
    public var frameTimeOrigins: [Int: Double] = [:]

    /// Makes a loop at virtual time zero.
    public init() {}

    // MARK: - Scheduling

    /// Queues `body` to run `delay` after now.
    @discardableResult
    public func schedule(after delay: VirtualTime = .zero, phase: TaskPhase = .task, owner: Int? = nil, label: String, _ body: @escaping () -> Void) -> TaskID {
        schedule(at: now + (delay < .zero ? .zero : delay), phase: phase, owner: owner, label: label, body)
    }

    /// Queues `body` to run at `time` (or now, if `time` has passed).
    @discardableResult
    public func schedule(at time: VirtualTime, phase: TaskPhase = .task, owner: Int? = nil, label: String, _ body: @escaping () -> Void) -> TaskID {
        nextSequence += 1
        let id = TaskID(sequence: nextSequence)
        heap.insert(LoopTask(due: max(time, now), phase: phase, id: id, owner: owner, label: label, body: body))
        return id
    }

    /// Cancels a queued task; cancelling one that ran or was cancelled does nothing.
    public func cancel(_ id: TaskID) {
        cancelled.insert(id)
    }

    /// Cancels every task, timer and animation frame that belongs to `owner` (a page going away).
    public func cancelAll(owner: Int) {
        heap.removeAll { $0.owner == owner }
        timers[owner] = nil
        nextTimerID[owner] = nil
        frameCallbacks[owner] = nil
        renderingSteps[owner] = nil
        nextFrameID[owner] = nil
        frameTimeOrigins[owner] = nil
    }

    /// Labels of the tasks still queued, in the order they would run.
    public var pendingTasks: [String] {
        heap.all.filter { !cancelled.contains($0.id) }.sorted { $0.runsBefore($1) }.map { "\($0.label) at \($0.due)" }
    }

    /// True when no task is queued.
    public var isIdle: Bool { heap.all.allSatisfy { cancelled.contains($0.id) } }

    // MARK: - Running

    /// Runs every task due up to `now + duration`, then sets the clock to that time.
    /// - Throws: ``LoopError/taskLimitReached(tasks:busiest:)`` for a task that re-queues itself
    ///   forever at one instant.
    public func advance(by duration: VirtualTime) throws {
        try run(until: now + duration)
    }

    /// Runs every task due up to `time`, then sets the clock to `time`.
    /// - Throws: ``LoopError/taskLimitReached(tasks:busiest:)``.
    public func run(until time: VirtualTime) throws {
        var counter = RunCounter(limit: maximumTasksPerRun)
        while let next = peekLive(), next.due <= time {
            try runNext(&counter)
        }
        if now < time { now = time }
    }

    /// Runs tasks until none is left, or fails once the clock would pass `now + limit`.
    /// - Throws: ``LoopError/idleLimitReached(limit:busiest:pending:)`` naming the task that kept
    ///   the loop busy (for a timer: where it was set).
    public func runUntilIdle(limit: VirtualTime = .seconds(60)) throws {
        let deadline = now + limit
        var counter = RunCounter(limit: maximumTasksPerRun)
        while let next = peekLive() {
            guard next.due <= deadline else {
                throw LoopError.idleLimitReached(limit: limit, busiest: counter.busiest ?? next.label, pending: pendingTasks)
            }
            try runNext(&counter)
        }
    }

    /// Runs tasks until `condition` holds, checking after each task (and before the first).
    /// - Throws: ``LoopError/conditionNotMet(what:limit:)`` when the loop goes idle or passes the
    ///   limit with the condition still false.
    public func run(until condition: () -> Bool, limit: VirtualTime = .seconds(60), what: String = "the awaited condition") throws {
        let deadline = now + limit
        var counter = RunCounter(limit: maximumTasksPerRun)
        while !condition() {
            guard let next = peekLive(), next.due <= deadline else {
                throw LoopError.conditionNotMet(what: what, limit: limit)
            }
            try runNext(&counter)
        }
    }

    private func peekLive() -> LoopTask? {
        while let first = heap.first, cancelled.contains(first.id) {
            _ = heap.popFirst()
            cancelled.remove(first.id)
        }
        return heap.first
    }

    /// True while a task runs (a load started then cannot run other tasks in between).
    public var isRunningTask: Bool { currentTask != nil }

    /// Called before every task with its label (a supervisor's view of what runs).
    public var beforeEachTask: ((String) -> Void)?
    /// Called after every task, wherever it ran (a benchmark's probe).
    public var afterEachTask: (() -> Void)?
    /// Asked after every task whether the session's JavaScript has been stopped (the session's
    /// watchdog): if so, the loop runs nothing more and throws ``LoopError/stopped(reason:location:during:)``.
    public var stopCheck: (() -> ScriptWatchdog.Termination?)?

    private func runNext(_ counter: inout RunCounter) throws {
        guard let task = heap.popFirst() else { return }
        if task.due > now { now = task.due }
        counter.record(task.label)
        if counter.total > maximumTasksPerRun {
            throw LoopError.taskLimitReached(tasks: counter.total - 1, busiest: counter.busiest ?? task.label)
        }
        tasksRun += 1
        beforeEachTask?(task.label)
        let previous = currentTask
        currentTask = task.id
        task.body()
        currentTask = previous
        timerNesting[task.id] = nil
        afterEachTask?()
        if let stopped = stopCheck?() {
            throw LoopError.stopped(reason: stopped.reason, location: stopped.location, during: task.label)
        }
    }
}

/// Counts the tasks of one run and, to name the busiest one when the limit is hit, their labels
/// over the last stretch before it: a run that never comes near the limit hashes no label.
struct RunCounter {
    /// Labels are counted only over this many tasks before the limit; a runaway task that
    /// fills the run fills this stretch too.
    static let window = 10_000
    private(set) var total = 0
    private let countFrom: Int
    private var counts: [String: Int] = [:]
    private var top: (label: String, count: Int)?

    init(limit: Int) {
        countFrom = max(0, limit - Self.window)
    }

    mutating func record(_ label: String) {
        total += 1
        guard total > countFrom else { return }
        let count = (counts[label] ?? 0) + 1
        counts[label] = count
        if count > (top?.count ?? 0) { top = (label, count) }
    }

    var busiest: String? { top.map { "\($0.label) (ran \($0.count) of the last \(total - countFrom) tasks)" } }
}
