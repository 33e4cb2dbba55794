/// Identifies a scheduled task so it can be cancelled.
public struct TaskID: Hashable, Sendable {
    let sequence: UInt64
}

/// What a task is, for diagnostics and for the order of tasks due at the same instant.
public enum TaskPhase: Int, Comparable, Sendable {
    /// An ordinary task (timer, event, network response, scenario step).
    case task = 0
    /// A rendering update (animation frame callbacks). At any instant it runs after the ordinary
    /// tasks due then, following HTML's processing model (8.1.7.3): run a task, perform a
    /// microtask checkpoint, then update the rendering.
    case rendering = 1

    public static func < (lhs: TaskPhase, rhs: TaskPhase) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A task waiting in the event loop.
struct LoopTask {
    let due: VirtualTime
    let phase: TaskPhase
    let id: TaskID
    /// Who the task belongs to (a page id), so a navigation can cancel everything a page queued.
    let owner: Int?
    /// Human-readable description, e.g. `interval timer 3 (1000 ms) set at page.html:12:5`.
    let label: String
    let body: () -> Void

    /// Due time, then phase, then scheduling order: a total order, so runs are deterministic.
    func runsBefore(_ other: LoopTask) -> Bool {
        if due != other.due { return due < other.due }
        if phase != other.phase { return phase < other.phase }
        return id.sequence < other.id.sequence
    }
}

/// A binary min-heap of tasks ordered by ``LoopTask/runsBefore(_:)``.
struct TaskHeap {
    private var items: [LoopTask] = []

    var isEmpty: Bool { items.isEmpty }
    var count: Int { items.count }
    var first: LoopTask? { items.first }
    var all: [LoopTask] { items }

    mutating func insert(_ task: LoopTask) {
        items.append(task)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child].runsBefore(items[parent]) else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func popFirst() -> LoopTask? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let first = items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < items.count, items[left].runsBefore(items[smallest]) { smallest = left }
            if right < items.count, items[right].runsBefore(items[smallest]) { smallest = right }
            if smallest == parent { break }
            items.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }

    mutating func removeAll(where predicate: (LoopTask) -> Bool) {
        let kept = items.filter { !predicate($0) }
        guard kept.count != items.count else { return }
        items = []
        for task in kept { insert(task) }
    }
}
