import Foundation

/// Milliseconds that move only when told to: the time source of fakes and simulations.
public final class VirtualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Int64

    /// A clock reading `start`.
    public init(start: Int64 = 0) { current = start }

    /// The current virtual time.
    public var now: Int64 { lock.withLock { current } }

    /// Moves time forward by `milliseconds` (never backwards).
    public func advance(by milliseconds: Int64) {
        lock.withLock { current += max(0, milliseconds) }
    }

    /// Moves time to `time` if that is later than now.
    public func advance(to time: Int64) {
        lock.withLock { current = max(current, time) }
    }
}
