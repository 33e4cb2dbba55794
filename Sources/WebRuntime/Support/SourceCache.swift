import Foundation
import WebPlatform

/// Process-wide cache of script files read from disk (package modules, runtime resources).
///
/// The files never change while the process runs, so each is read once, whatever the number of
/// sessions. Sessions may run on several threads, hence the lock.
package final class SourceCache: Sendable {
    package static let shared = SourceCache()
    private let sources = LockedCache<String>()
    /// Resource texts by name: finding a resource in the bundle asks the file system each time
    /// (about 60 µs), and every session and extension context reads several.
    private let resources = LockedCache<String>()

    /// The text of the file at `path`.
    /// - Throws: a Foundation error when the file cannot be read as UTF-8.
    package func text(atPath path: String) throws -> String {
        if let cached = sources[path] { return cached }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        sources[path] = text
        return text
    }

    /// The text of a JavaScript resource (`JS/<name>`, where `name` may name a folder:
    /// `css/cssom.js`) of `bundle`: the web platform layers' by default, or another runtime
    /// target's (`Bundle.module` of the browser runtime).
    /// - Throws: ``RuntimeResourceError`` when the resource is missing from the bundle.
    package func resource(_ name: String, in bundle: Bundle = WebPlatform.bundle) throws -> String {
        let key = bundle.bundlePath + "/" + name
        if let cached = resources[key] { return cached }
        // Bundle looks a name up in one folder: the folders go in the subdirectory.
        let folders = name.split(separator: "/").dropLast().joined(separator: "/")
        let file = name.split(separator: "/").last.map(String.init) ?? name
        let subdirectory = folders.isEmpty ? "JS" : "JS/" + folders
        guard let url = bundle.url(forResource: file, withExtension: nil, subdirectory: subdirectory) else {
            throw RuntimeResourceError(name: name, bundle: bundle.bundleURL.lastPathComponent)
        }
        let text = try text(atPath: url.path)
        resources[key] = text
        return text
    }
}

/// A runtime script resource is missing from the build products.
public struct RuntimeResourceError: Error, CustomStringConvertible {
    /// The resource's path under `JS/`.
    public let name: String
    /// The bundle that should hold it.
    public let bundle: String
    public var description: String {
        "runtime resource 'JS/\(name)' is missing from the bundle '\(bundle)'; rebuild with 'swift build'"
    }
}
