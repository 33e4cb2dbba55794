import Foundation

/// What a scenario's worker thread is doing, for the thread that supervises it: the step and
/// the event-loop task running now. Written by the worker, read by the supervisor when the
/// worker has not returned in time.
public final class ScenarioProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var stepIndex: Int?
    private var stepText = "the extension's start"
    private var taskLabel: String?
    /// The worker's thread (for lowering its priority once it is abandoned).
    public var threadID: pthread_t? {
        lock.lock(); defer { lock.unlock() }
        return thread
    }
    private var thread: pthread_t?

    /// Makes an empty record.
    public init() {}

    func started(thread: pthread_t) {
        lock.lock(); self.thread = thread; lock.unlock()
    }

    func step(_ index: Int, _ text: String) {
        lock.lock(); stepIndex = index; stepText = text; taskLabel = nil; lock.unlock()
    }

    func task(_ label: String) {
        lock.lock(); taskLabel = label; lock.unlock()
    }

    /// The step running (its index, nil before the first) and a description of where.
    public var snapshot: (step: Int?, text: String, task: String?) {
        lock.lock(); defer { lock.unlock() }
        return (stepIndex, stepText, taskLabel)
    }
}
