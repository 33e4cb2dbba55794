import Foundation

/// The parts of a URL that permission checks and match patterns read, parsed once per URL
/// string: every message and every navigation asks about the same few URLs again, and
/// `URLComponents` costs microseconds each time.
struct URLParts: Sendable {
    /// Lowercased scheme, e.g. `https`.
    let scheme: String?
    /// Lowercased host, e.g. `news.example`.
    let host: String?
    /// The percent-encoded path (`/` when empty), then `?` and the query when there is one.
    let pathAndQuery: String

    /// The parts of `url`, or nil when `URLComponents` cannot parse it.
    static func of(_ url: String) -> URLParts? {
        if let known = cache[url] { return known.parts }
        var parts: URLParts?
        if let components = URLComponents(string: url) {
            var path = components.percentEncodedPath
            if path.isEmpty { path = "/" }
            if let query = components.percentEncodedQuery { path += "?" + query }
            parts = URLParts(scheme: components.scheme?.lowercased(), host: components.host?.lowercased(), pathAndQuery: path)
        }
        cache[url] = Known(parts: parts)
        return parts
    }

    private struct Known: Sendable { let parts: URLParts? }
    private static let cache = PartsCache()

    /// Shared by the scenarios that `--jobs` runs on several threads; bounded.
    private final class PartsCache: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [String: Known] = [:]

        subscript(url: String) -> Known? {
            get { lock.withLock { entries[url] } }
            set {
                lock.withLock {
                    if entries.count >= 4096 { entries.removeAll(keepingCapacity: true) }
                    entries[url] = newValue
                }
            }
        }
    }
}
