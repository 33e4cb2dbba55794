import BrowserRuntime
import Dispatch
import ScenarioKit
import WebRuntime

/// A benchmark figure: samples of one metric, summarized as median and 90th percentile.
public struct BenchMeasurement: Sendable {
    /// The metric name as `adv-harness bench --json` prints it (`fresh_page_ms`).
    public let name: String
    /// The unit of the samples (`ms`, `us`, `per_s`).
    public let unit: String
    /// The samples, in the order taken.
    public let samples: [Double]

    /// Makes a measurement.
    public init(name: String, unit: String, samples: [Double]) {
        self.name = name
        self.unit = unit
        self.samples = samples
    }

    /// Calls `body` `warmup + iterations` times (with the call's index) and keeps the wall time
    /// of the last `iterations` calls, in `unit` (`ms` or `us`). `untimed`, when given, runs
    /// after each call outside the measurement (letting a page settle before the next one).
    static func timing(
        _ name: String, unit: String, iterations: Int, warmup: Int,
        _ body: (Int) throws -> Void, untimed: ((Int) throws -> Void)? = nil
    ) rethrows -> BenchMeasurement {
        let divisor = unit == "us" ? 1e3 : 1e6
        var samples: [Double] = []
        samples.reserveCapacity(iterations)
        for index in 0..<(warmup + iterations) {
            let start = DispatchTime.now().uptimeNanoseconds
            try body(index)
            let end = DispatchTime.now().uptimeNanoseconds
            if index >= warmup { samples.append(Double(end - start) / divisor) }
            try untimed?(index)
        }
        return BenchMeasurement(name: name, unit: unit, samples: samples)
    }

    /// The median (mean of the two middle samples for an even count).
    public var median: Double { Self.percentile(samples, 0.5) }
    /// The 90th percentile (nearest rank).
    public var p90: Double { Self.percentile(samples, 0.9) }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        if fraction == 0.5 {
            let middle = sorted.count / 2
            return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[max(0, min(sorted.count - 1, rank - 1))]
    }
}
