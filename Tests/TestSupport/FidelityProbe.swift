import BrowserRuntime
import ScenarioKit
import WebRuntime

/// One probe of a fidelity fixture: a JavaScript expression whose value real WebKit recorded
/// (fixtures/fidelity/expected/<part>.json) and the harness must reproduce.
public struct FidelityProbe: Sendable, CustomStringConvertible {
    /// The part of issue 3 (`cssom`, `cascade`, …): the case file's name.
    public let part: String
    /// The fixture's name.
    public let fixture: String
    /// Index of the probe within the fixture.
    public let index: Int
    /// The probe's source.
    public let expression: String

    public var description: String { "\(fixture)#\(index): \(expression)" }
}
