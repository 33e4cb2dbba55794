import BrowserRuntime
import WebRuntime

/// The outcome of one scenario run.
public struct ScenarioResult: Sendable {
    /// The scenario.
    public let scenario: Scenario
    /// Why it failed: harness errors, unmet expectations, budget overruns (empty: passed).
    public var failures: [String]
    /// The full trace dump.
    public let trace: String
    /// Virtual time at the end.
    public let virtualDuration: VirtualTime
    /// Wall time the run took, in seconds.
    public let wallSeconds: Double
    /// True when the run's context group (and so every realm and value of its session) was
    /// freed once the runner was gone.
    package internal(set) var sessionReleased = false

    /// True when nothing failed.
    public var passed: Bool { failures.isEmpty }
}
