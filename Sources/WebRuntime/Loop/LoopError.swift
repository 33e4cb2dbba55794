/// The event loop could not reach the state it was asked for.
public enum LoopError: Error, CustomStringConvertible, Equatable {
    /// `runUntilIdle` gave up: tasks were still being queued when the limit was reached.
    /// `busiest` names the task that ran most often (usually a runaway interval) with its source.
    case idleLimitReached(limit: VirtualTime, busiest: String, pending: [String])
    /// The loop ran more tasks than allowed without the clock passing the limit (a task that
    /// re-queues itself at the same instant).
    case taskLimitReached(tasks: Int, busiest: String)
    /// A condition awaited with `run(until:limit:)` was still false at the limit.
    case conditionNotMet(what: String, limit: VirtualTime)
    /// The session's JavaScript was stopped (``ScriptWatchdog``) while or after `during` ran:
    /// `reason` says which limit, `location` (url:line:column) where the script was.
    case stopped(reason: String, location: String?, during: String)

    public var description: String {
        switch self {
        case let .idleLimitReached(limit, busiest, pending):
            var text = "the event loop was still busy after \(limit) of virtual time: \(busiest) keeps running"
            if pending.count > 1 { text += " (\(pending.count) tasks pending)" }
            return text
        case let .taskLimitReached(tasks, busiest):
            return "the event loop ran \(tasks) tasks without reaching idle: \(busiest) keeps running"
        case let .conditionNotMet(what, limit):
            return "\(what) did not happen within \(limit) of virtual time"
        case let .stopped(reason, location, during):
            return "JavaScript stopped: it \(reason) during \(during)" + (location.map { " (at \($0))" } ?? "")
        }
    }
}
