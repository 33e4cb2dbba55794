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

    /// The latest time the clock can show (about 292,000 years): later ones are this.
    public static let distantFuture = VirtualTime(microseconds: .max)

    /// Makes a time from milliseconds (fractions below a microsecond are dropped). A value past
    /// the clock's range saturates instead of trapping, NaN is zero.
    public static func milliseconds(_ ms: Double) -> VirtualTime {
        let us = (ms * 1000).rounded(.towardZero)
        if us.isNaN { return .zero }
        if us >= 9.2e18 { return .distantFuture }
        if us <= -9.2e18 { return VirtualTime(microseconds: .min) }
        return VirtualTime(microseconds: Int64(us))
    }

    /// Makes a time from seconds.
    public static func seconds(_ s: Double) -> VirtualTime { .milliseconds(s * 1000) }

    /// The time in milliseconds, fractional.
    public var milliseconds: Double { Double(microseconds) / 1000 }

    public static func < (lhs: VirtualTime, rhs: VirtualTime) -> Bool { lhs.microseconds < rhs.microseconds }
    /// Sums saturate at the ends of the clock's range: a time never wraps round to the past.
    public static func + (lhs: VirtualTime, rhs: VirtualTime) -> VirtualTime {
        let (sum, overflow) = lhs.microseconds.addingReportingOverflow(rhs.microseconds)
        return overflow ? VirtualTime(microseconds: rhs.microseconds > 0 ? .max : .min) : VirtualTime(microseconds: sum)
    }
    public static func - (lhs: VirtualTime, rhs: VirtualTime) -> VirtualTime {
        let (difference, overflow) = lhs.microseconds.subtractingReportingOverflow(rhs.microseconds)
        return overflow ? VirtualTime(microseconds: rhs.microseconds < 0 ? .max : .min) : VirtualTime(microseconds: difference)
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
