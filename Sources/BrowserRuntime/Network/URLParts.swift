import Foundation
import WebRuntime

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
    /// Shared by the scenarios `--jobs` runs on several threads; URLs come from pages, so bounded.
    private static let cache = LockedCache<Known>(capacity: 4096)
}
