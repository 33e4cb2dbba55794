/// Collects the trace of one session in the order effects happen.
///
/// The recorder reads time from the session's virtual clock only, so the same scenario gives the
/// same lines on every run and machine.
public final class TraceRecorder {
    /// Every event recorded so far, in order.
    public private(set) var events: [TraceEvent] = []
    private let clock: () -> VirtualTime

    /// Makes a recorder that stamps events with `clock()`.
    public init(clock: @escaping () -> VirtualTime) {
        self.clock = clock
    }

    /// Records an event now.
    public func record(_ channel: TraceChannel, at location: String, _ text: String) {
        events.append(TraceEvent(time: clock(), location: location, channel: channel, text: text))
    }

    /// The events kept by the filter.
    /// - Parameters:
    ///   - channels: only these channels (all when nil or empty).
    ///   - from: only events at or after this time.
    ///   - to: only events at or before this time.
    public func select(channels: Set<TraceChannel>? = nil, from: VirtualTime? = nil, to: VirtualTime? = nil) -> [TraceEvent] {
        events.filter { event in
            if let channels, !channels.isEmpty, !channels.contains(event.channel) { return false }
            if let from, event.time < from { return false }
            if let to, event.time > to { return false }
            return true
        }
    }

    /// The trace as text, one event a line, ending with a newline (empty when there is none).
    public func dump(channels: Set<TraceChannel>? = nil, from: VirtualTime? = nil, to: VirtualTime? = nil) -> String {
        select(channels: channels, from: from, to: to).map { $0.line + "\n" }.joined()
    }
}
