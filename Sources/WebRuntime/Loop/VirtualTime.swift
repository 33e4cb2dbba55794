/// A point on the virtual clock, in whole microseconds since the session started.
///
/// Nothing in the runtime reads the wall clock: this is the only time scripts see.
public struct VirtualTime: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Microseconds since the session's start.
    public var microseconds: Int64

    /// The session's start.
    public static let zero = VirtualTime(microseconds: 0)

    /// Makes a time from microseconds.
    public init(microseconds: Int64) { self.microseconds = microseconds }

    /// Makes a time from milliseconds (fractions below a microsecond are dropped).
    public static func milliseconds(_ ms: Double) -> VirtualTime {
        VirtualTime(microseconds: Int64((ms * 1000).rounded(.towardZero)))
    }

    /// Makes a time from seconds.
    public static func seconds(_ s: Double) -> VirtualTime { .milliseconds(s * 1000) }

    /// The time in milliseconds, fractional.
    public var milliseconds: Double { Double(microseconds) / 1000 }

    public static func < (lhs: VirtualTime, rhs: VirtualTime) -> Bool { lhs.microseconds < rhs.microseconds }
    public static func + (lhs: VirtualTime, rhs: VirtualTime) -> VirtualTime {
        VirtualTime(microseconds: lhs.microseconds &+ rhs.microseconds)
    }
    public static func - (lhs: VirtualTime, rhs: VirtualTime) -> VirtualTime {
        VirtualTime(microseconds: lhs.microseconds &- rhs.microseconds)
    }

    /// `12.5ms`-style text with no trailing zeros, as traces print it.
    public var description: String {
        let whole = microseconds / 1000
        let fraction = abs(microseconds % 1000)
        if fraction == 0 { return "\(whole)ms" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)ms"
    }
}
