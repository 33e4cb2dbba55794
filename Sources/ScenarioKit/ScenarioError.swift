import BrowserRuntime
import StrictJSON
import WebRuntime

/// A scenario file that cannot run: which file, where in it, and why.
public struct ScenarioError: Error, Equatable, CustomStringConvertible {
    /// The scenario file.
    public let file: String
    /// The JSON path of the offending value (`steps[3].open`), empty for the file as a whole.
    public let path: String
    /// What is wrong and how to fix it.
    public let reason: String
    /// Where in the file (1-based line and column), when known.
    public var line: Int?
    public var column: Int?

    /// Makes an error.
    public init(file: String, path: String, reason: String, line: Int? = nil, column: Int? = nil) {
        self.file = file
        self.path = path
        self.reason = reason
        self.line = line
        self.column = column
    }

    /// `fixtures/scenarios/x/y.json:4:17: steps[2].at: must be a number`
    public var description: String {
        return "\(file)\(JSONLocation.suffix(line: line, column: column)): " + (path.isEmpty ? reason : "\(path): \(reason)")
    }
}
