/// A tiny seeded random number generator (SplitMix64) for reproducible simulations and tests.
///
/// Every random choice in the property tests, the sync simulation, the multi-process worker, the
/// scenario fuzzer and `adv-harness run --shuffle` comes from one of these, so a printed seed
/// replays a run.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose whole output is determined by `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<bound (0 when bound is below 1), by the remainder: the same sequence on
    /// every machine and toolchain (the standard library's `random(in:using:)` does not promise
    /// its algorithm).
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(1, bound))) }

    /// `items` in a random order (Fisher-Yates, from the last position down), the same for the
    /// same seed everywhere.
    public mutating func shuffled<T>(_ items: [T]) -> [T] {
        var items = items
        var index = items.count - 1
        while index > 0 {
            items.swapAt(index, below(index + 1))
            index -= 1
        }
        return items
    }
}
