import BrowserRuntime
import WebRuntime

/// A scenario file that cannot run: which file, where in it, and why.
public struct ScenarioError: Error, Equatable, CustomStringConvertible {
    /// The scenario file.
    public let file: String
    /// The JSON path of the offending value (`steps[3].open`), empty for the file as a whole.
    public let path: String
    /// What is wrong and how to fix it.
    public let reason: String

    /// Makes an error.
    public init(file: String, path: String, reason: String) {
        self.file = file
        self.path = path
        self.reason = reason
    }

    public var description: String { path.isEmpty ? "\(file): \(reason)" : "\(file): \(path): \(reason)" }
}
