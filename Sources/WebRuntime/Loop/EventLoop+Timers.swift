import JSKit

/// One active `setTimeout` / `setInterval` timer.
struct TimerRecord {
    let callback: JSValue
    let arguments: [JSValue]
    let timeout: Int
    let repeating: Bool
    /// `url:line:column` of the call that set it.
    let source: String
    var task: TaskID
}

/// A script exception caught by the runtime, with where it came from.
public struct JSErrorReport: CustomStringConvertible {
    /// The exception.
    public let error: JSError
    /// What was running: `timeout timer 2 set at page.html:4:7`, `inline script 1`, ...
    public let during: String

    /// Makes a report of `error`, thrown while `during` ran.
    package init(error: JSError, during: String) {
        self.error = error
        self.during = during
    }

    public var description: String { "\(error.description) [during \(during)]" }
}

extension EventLoop {
    /// Implements HTML's timer initialization steps (8.6 Timers) for `owner`'s global.
    ///
    /// - The timeout is already a WebIDL `long` clamped at 0 (done by the script-side wrapper).
    /// - Nesting: a timer set from a timer task has that task's nesting level plus one; past level
    ///   5 a timeout below 4 ms becomes 4 ms.
    /// - An interval is re-armed after its callback returns, through the same steps, so its own
    ///   nesting level grows and a 0 ms interval is clamped to 4 ms from its sixth run.
    /// - Returns: the timer id, unique per owner, starting at 1.
    @discardableResult
    public func addTimer(owner: Int, callback: JSValue, arguments: [JSValue], timeout: Int, repeating: Bool, source: String) -> Int {
        let id = (nextTimerID[owner] ?? 0) + 1
        nextTimerID[owner] = id
        armTimer(owner: owner, id: id, callback: callback, arguments: arguments, timeout: timeout, repeating: repeating, source: source)
        return id
    }

    private func armTimer(owner: Int, id: Int, callback: JSValue, arguments: [JSValue], timeout requested: Int, repeating: Bool, source: String) {
        let nesting = currentTask.flatMap { timerNesting[$0] } ?? 0
        var timeout = max(0, requested)
        if nesting > 5, timeout < 4 { timeout = 4 }
        let kind = repeating ? "interval" : "timeout"
        let label = "\(kind) timer \(id) (\(requested) ms) set at \(source)"
        let task = schedule(after: .milliseconds(Double(timeout)), owner: owner, label: label) { [weak self] in
            self?.fireTimer(owner: owner, id: id, nesting: nesting + 1, label: label)
        }
        timers[owner, default: [:]][id] = TimerRecord(
            callback: callback, arguments: arguments, timeout: requested, repeating: repeating, source: source, task: task)
    }

    private func fireTimer(owner: Int, id: Int, nesting: Int, label: String) {
        guard let record = timers[owner]?[id] else { return }
        if let current = currentTask { timerNesting[current] = nesting }
        if !record.repeating { timers[owner]?[id] = nil }
        do {
            try record.callback.call(record.arguments)
        } catch let error as JSError {
            errorHandler?(owner, JSErrorReport(error: error, during: label))
        } catch {
            errorHandler?(owner, JSErrorReport(error: JSError(message: "\(error)"), during: label))
        }
        // Re-arm only if the callback did not clear the interval.
        if record.repeating, timers[owner]?[id] != nil {
            armTimer(owner: owner, id: id, callback: record.callback, arguments: record.arguments,
                     timeout: record.timeout, repeating: true, source: record.source)
        }
    }

    /// Implements `clearTimeout` / `clearInterval`: unknown ids are ignored, as in HTML.
    public func clearTimer(owner: Int, id: Int) {
        guard let record = timers[owner]?[id] else { return }
        cancel(record.task)
        timers[owner]?[id] = nil
    }

    /// The number of active timers of `owner`.
    public func activeTimerCount(owner: Int) -> Int { timers[owner]?.count ?? 0 }
}
