import CJavaScriptCore

/// Stops the JavaScript of one context group when it runs too long: past a per-call limit,
/// or past a deadline in wall time (a scenario's budget) even in the middle of one call or one
/// parse. Once it has stopped a script, it stops every later one at its first check after the
/// engine's timer fires, microseconds in (a very short script may still finish): the group is
/// done, and its host stops calling it.
///
/// Built on JavaScriptCore's execution time limit with a callback (JSContextRefPrivate.h). Two
/// properties of WebKit's Watchdog.cpp shape it:
/// - the callback runs only once a single VM entry has used the limit's CPU time, and when it
///   returns false without setting a new limit the timer is not restarted for the rest of that
///   entry (`shouldTerminate`'s "case 3"), so the callback re-arms itself by setting the limit
///   again ("case 2") and is called every `quantum` of CPU time a long entry runs;
/// - each job of the microtask queue is its own VM entry (JSC 2.50 drains the queue when the
///   host's call releases the API lock, outside any entry scope), so a chain of short jobs never
///   reaches any limit. The host's own code that such a chain runs (a MutationObserver's
///   delivery, a host function) calls ``checkDeadline()``, which stops the group; a chain that
///   runs none of it is left to the scenario runner's supervision from another thread.
///
/// Not thread-safe: like its group, used from one thread at a time.
public final class ScriptWatchdog {
    /// Why and where the watchdog stopped the group's JavaScript.
    public struct Termination: Sendable, Equatable, CustomStringConvertible {
        /// What was exceeded, as a sentence fragment: `ran past the per-call limit of 10 s`.
        public let reason: String
        /// `url:line:column` of the innermost frame that has a URL, when a script was running.
        public let location: String?
        /// The JavaScript stack at the stop, one `function@url:line:column` frame a line.
        public let stack: String?

        /// `reason (at location)`.
        public var description: String {
            location.map { "\(reason) (at \($0))" } ?? reason
        }
    }

    /// The group watched.
    public let group: JSContextGroup
    /// CPU time between checks while one entry runs.
    public let quantum: Double
    /// Seconds one call from the host into JavaScript may run, the microtasks it queues included
    /// (wall time, from the outermost call: the host's calls into JavaScript are counted per
    /// thread by `adv_entry_begin`, shim.h).
    public var callLimit: Double
    /// URL prefixes of the host's own scripts, passed over when naming where a script was stopped.
    public var hostURLPrefixes: [String] = []
    /// Set once the watchdog has stopped the group.
    public private(set) var termination: Termination?

    private var deadline: (uptimeNanoseconds: UInt64, reason: String)?

    /// Starts watching `group`, replacing any execution time limit it had.
    public init(group: JSContextGroup, callLimit: Double, quantum: Double = 0.05) {
        self.group = group
        self.callLimit = callLimit
        self.quantum = quantum
        arm(limit: quantum)
    }

    deinit {
        // The callback holds this object unretained: it must never run once it is gone.
        JSContextGroupClearExecutionTimeLimit(group.ref)
    }

    /// Stops JavaScript once the monotonic clock passes `seconds` from now, for `reason`
    /// (`exceeded the scenario's wall-time budget of 30 s`).
    public func setDeadline(after seconds: Double, reason: String) {
        // Past about 30 years the deadline is as good as none (and cannot overflow).
        let nanoseconds = seconds >= 1e9 ? UInt64.max / 2 : UInt64(max(0, seconds) * 1e9)
        deadline = (adv_monotonic_nanoseconds() &+ nanoseconds, reason)
    }

    /// Removes the deadline.
    public func clearDeadline() {
        deadline = nil
    }

    /// True once the group's JavaScript has been stopped.
    public var isStopped: Bool { termination != nil }

    /// Checks the deadline and the per-call limit from the host (between calls into JavaScript,
    /// or from a host function JavaScript called), and stops the group when one has passed.
    /// Returns the termination, if any.
    /// From a host function, pass its `context`: the stop then names the script that called it,
    /// or `what` called it when that is only the host's own code.
    @discardableResult
    public func checkDeadline(from context: JSContext? = nil, what: String? = nil) -> Termination? {
        if termination == nil, let reason = exceeded() {
            let stack = context.flatMap { Self.currentStack($0.ref) }
            stop(Termination(reason: reason, location: stack.flatMap(innermostLocation) ?? what, stack: stack))
        }
        return termination
    }

    /// The limit that has passed, if one has.
    private func exceeded() -> String? {
        let now = adv_monotonic_nanoseconds()
        if let deadline, now >= deadline.uptimeNanoseconds { return deadline.reason }
        let entry = HostEntry.state
        if entry.depth > 0, Double(now &- entry.started) / 1e9 >= callLimit {
            return "ran past the per-call limit of \(Self.seconds(callLimit))"
        }
        return nil
    }

    /// Stops every later entry into the group's JavaScript, for `reason`.
    public func stop(reason: String, location: String? = nil) {
        stop(Termination(reason: reason, location: location, stack: nil))
    }

    private func stop(_ reached: Termination) {
        guard termination == nil else { return }
        termination = reached
        // A zero limit: every later entry reaches it at its first check and is terminated.
        arm(limit: 0)
    }

    private func arm(limit: Double) {
        JSContextGroupSetExecutionTimeLimit(group.ref, limit, scriptWatchdogCallback, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Called by JavaScriptCore on the script's thread, with the API lock held.
    fileprivate func shouldTerminate(_ ctx: JSContextRef?) -> Bool {
        if termination != nil { return true }
        let reason = exceeded()
        guard let reason else {
            arm(limit: quantum)
            return false
        }
        let stack = ctx.flatMap(Self.currentStack)
        termination = Termination(reason: reason, location: stack.flatMap(innermostLocation), stack: stack)
        arm(limit: 0)
        return true
    }

    // MARK: - Helpers

    /// The running script's stack, read by evaluating `new Error().stack` inside the callback
    /// (the interrupted frames are still on the stack; the evaluation's own frame has no URL).
    private static func currentStack(_ ctx: JSContextRef) -> String? {
        withJSString("new Error().stack") { script in
            var exception: JSValueRef?
            guard let value = JSEvaluateScript(ctx, script, nil, nil, 1, &exception), exception == nil,
                  let copied = JSValueToStringCopy(ctx, value, nil) else { return nil }
            // The first frame is the evaluation's own `global code@`, which has no URL.
            let lines = consumeJSString(copied).split(separator: "\n").map(String.init).filter { $0 != "global code@" }
            return lines.isEmpty ? nil : lines.joined(separator: "\n")
        }
    }

    /// Where the script was: `url:line:column` of the innermost frame that is not the host's own
    /// code (``hostURLPrefixes``); for a frame without a URL (an inline event handler, `eval` or
    /// `Function` code) the first frame with one that called it, said so.
    func innermostLocation(_ stack: String) -> String? {
        var withoutURL = false
        for frame in stack.split(separator: "\n") {
            let place = String(JSError.place(ofFrame: frame))
            if place.isEmpty || place.hasPrefix("[native") {
                withoutURL = withoutURL || place.isEmpty
                continue
            }
            guard !hostURLPrefixes.contains(where: { place.hasPrefix($0) }) else { continue }
            return withoutURL ? "code without a URL called from \(place)" : place
        }
        return withoutURL ? "code without a URL (an inline event handler, eval or Function)" : nil
    }

    /// `30 s`, `0.5 s`: a limit or budget for messages.
    public static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? "\(Int(value)) s" : "\(value) s"
    }
}

/// The host's calls into JavaScript on this thread (``JSContext/trying(_:)`` begins and ends
/// them; the watchdog reads when the outermost began). The state is shim.h's: static inline C,
/// of which every Swift file that used it would get a copy of its own in a debug build, so only
/// this file touches it.
enum HostEntry {
    @inline(never) static func begin() { adv_entry_begin() }
    @inline(never) static func end() { adv_entry_end() }
    static var state: ADVEntryState { adv_entry_state().pointee }
}

private let scriptWatchdogCallback: JSShouldTerminateCallback = { ctx, info in
    guard let info else { return true }
    return Unmanaged<ScriptWatchdog>.fromOpaque(info).takeUnretainedValue().shouldTerminate(ctx)
}
