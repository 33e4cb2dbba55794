/// A command-line argument that names no suite, scenario file or folder.
public struct CatalogError: Error, Equatable, CustomStringConvertible {
    /// What was wrong and how to fix it: `unknown suite 'youtub'; did you mean 'youtube'?`.
    public let message: String

    /// Makes an error.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
