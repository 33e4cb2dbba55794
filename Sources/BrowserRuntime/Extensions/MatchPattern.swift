import Foundation
import WebRuntime

/// A WebExtension match pattern (`<scheme>://<host>/<path>` or `<all_urls>`), as content scripts,
/// host permissions and web_accessible_resources use them.
///
/// Grammar and semantics per MDN "Match patterns" and Chromium's
/// extensions/common/url_pattern.cc: scheme `*` means http or https (and ws/wss); host `*` any
/// host, `*.example.com` the host and every subdomain; the path is a glob where only `*` is
/// special; ports are ignored for matching unless given.
public struct MatchPattern: Hashable, Sendable, CustomStringConvertible {
    /// The pattern text as written.
    public let text: String
    private let schemes: Set<String>
    private let host: String?          // nil: any host
    private let matchSubdomains: Bool
    private let path: String

    /// Schemes a pattern may name.
    static let validSchemes: Set<String> = ["http", "https", "ws", "wss", "file", "ftp", "data", "urn"]

    /// Parses `text`.
    /// - Throws: ``MatchPatternError`` naming what is wrong.
    public init(_ text: String) throws {
        self.text = text
        if text == "<all_urls>" {
            schemes = ["http", "https", "ws", "wss", "file", "ftp", "data", "urn"]
            host = nil
            matchSubdomains = true
            path = "/*"
            return
        }
        guard let separator = text.range(of: "://") else {
            throw MatchPatternError(pattern: text, reason: "missing '://' after the scheme")
        }
        let scheme = String(text[..<separator.lowerBound])
        if scheme == "*" {
            schemes = ["http", "https", "ws", "wss"]
        } else if Self.validSchemes.contains(scheme) {
            schemes = [scheme]
        } else {
            throw MatchPatternError(pattern: text, reason: "unsupported scheme '\(scheme)'")
        }
        let rest = text[separator.upperBound...]
        let slash = rest.firstIndex(of: "/")
        var hostPart = String(slash.map { rest[..<$0] } ?? rest)
        if scheme == "file" {
            guard hostPart.isEmpty || hostPart == "*" else {
                throw MatchPatternError(pattern: text, reason: "file patterns have no host")
            }
        } else if hostPart.isEmpty {
            throw MatchPatternError(pattern: text, reason: "missing host")
        }
        guard let slash else {
            throw MatchPatternError(pattern: text, reason: "missing path (add '/*' to match every path)")
        }
        path = String(rest[slash...])
        if let colon = hostPart.lastIndex(of: ":"), !hostPart.hasPrefix("[") {
            hostPart = String(hostPart[..<colon])
        }
        if hostPart == "*" || hostPart.isEmpty {
            host = nil
            matchSubdomains = true
        } else if hostPart.hasPrefix("*."), !hostPart.dropFirst(2).contains("*") {
            host = String(hostPart.dropFirst(2)).lowercased()
            matchSubdomains = true
        } else if hostPart.contains("*") {
            throw MatchPatternError(pattern: text, reason: "'*' in the host must be alone or followed by '.'")
        } else {
            host = hostPart.lowercased()
            matchSubdomains = false
        }
    }

    /// True when `url` matches the pattern.
    public func matches(_ url: String) -> Bool {
        guard let parts = URLParts.of(url), let scheme = parts.scheme, schemes.contains(scheme) else { return false }
        if let host {
            let urlHost = parts.host ?? ""
            if urlHost != host {
                guard matchSubdomains, urlHost.hasSuffix("." + host) else { return false }
            }
        }
        return Self.glob(path, matches: parts.pathAndQuery)
    }

    /// `*` matches any run of characters; everything else is literal.
    static func glob(_ pattern: String, matches text: String) -> Bool {
        let p = Array(pattern.utf8)
        let t = Array(text.utf8)
        var pi = 0, ti = 0, star = -1, mark = 0
        while ti < t.count {
            if pi < p.count, p[pi] == UInt8(ascii: "*") {
                star = pi; mark = ti; pi += 1
            } else if pi < p.count, p[pi] == t[ti] {
                pi += 1; ti += 1
            } else if star >= 0 {
                pi = star + 1; mark += 1; ti = mark
            } else {
                return false
            }
        }
        while pi < p.count, p[pi] == UInt8(ascii: "*") { pi += 1 }
        return pi == p.count
    }

    public var description: String { text }
}

extension MatchPattern {
    /// True when every URL `other` (a pattern's text) matches, this one matches too: as far as
    /// the browsers compare requested and granted patterns (scheme and host; paths ignored).
    func covers(_ other: String) -> Bool {
        guard let pattern = try? MatchPattern(other) else { return false }
        if text == "<all_urls>" { return true }
        if pattern.text == "<all_urls>" { return false }
        guard pattern.schemes.isSubset(of: schemes) else { return false }
        guard let host else { return true }
        guard let otherHost = pattern.host else { return false }
        if otherHost == host { return !pattern.matchSubdomains || matchSubdomains }
        return matchSubdomains && otherHost.hasSuffix("." + host)
    }
}

/// A match pattern that cannot be parsed.
public struct MatchPatternError: Error, Equatable, CustomStringConvertible {
    /// The pattern as written.
    public let pattern: String
    /// Why it is invalid.
    public let reason: String
    public var description: String { "invalid match pattern '\(pattern)': \(reason)" }
}
