import Foundation

/// Process-wide cache of script files read from disk (package modules, runtime resources).
///
/// The files never change while the process runs, so each is read once, whatever the number of
/// sessions. Sessions may run on several threads, hence the lock.
final class SourceCache: Sendable {
    static let shared = SourceCache()
    private let sources = LockedCache<String>()
    /// Resource texts by name: finding a resource in the bundle asks the file system each time
    /// (about 60 µs), and every session and extension context reads several.
    private let resources = LockedCache<String>()

    /// The text of the file at `path`.
    /// - Throws: a Foundation error when the file cannot be read as UTF-8.
    func text(atPath path: String) throws -> String {
        if let cached = sources[path] { return cached }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        sources[path] = text
        return text
    }

    /// The text of a JavaScript resource bundled with the runtime (`Web/JS/<name>`).
    /// - Throws: ``RuntimeResourceError`` when the resource is missing from the bundle.
    func resource(_ name: String) throws -> String {
        if let cached = resources[name] { return cached }
        guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "JS") else {
            throw RuntimeResourceError(name: name)
        }
        let text = try text(atPath: url.path)
        resources[name] = text
        return text
    }
}

/// A runtime script resource is missing from the build products.
public struct RuntimeResourceError: Error, CustomStringConvertible {
    /// The resource's file name.
    public let name: String
    public var description: String {
        "runtime resource 'JS/\(name)' is missing from the ExtensionRuntime bundle; rebuild with 'swift build'"
    }
}
