// TEMPORARY STAND-IN written on branch `rulestore` so RuleStore can build before
// the real hostname module lands on `blockercore`. It has the agreed API but no
// IDNA support (non-ASCII input is rejected). Replace it with the real file from
// `blockercore`; do not extend it.

/// Hostname normalization and matching (stand-in; see the file header).
public enum Hostname {
    /// Lowercases, strips one trailing dot and validates an ASCII hostname.
    /// - Throws: `HostnameError` when the input is not a valid hostname.
    public static func normalize(_ input: String) throws -> String {
        var host = input.lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        guard !host.isEmpty, host.utf8.count <= 253 else {
            throw HostnameError(input: input, reason: "length must be 1...253")
        }
        for label in host.split(separator: ".", omittingEmptySubsequences: false) {
            guard !label.isEmpty, label.utf8.count <= 63 else {
                throw HostnameError(input: input, reason: "empty or overlong label")
            }
            guard label.utf8.allSatisfy({ ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 }),
                  label.first != "-", label.last != "-"
            else {
                throw HostnameError(input: input, reason: "label '\(label)' has invalid characters")
            }
        }
        return host
    }

    /// Whether `host` equals `parent` or is one of its subdomains.
    public static func isSameOrSubdomain(_ host: String, of parent: String) -> Bool {
        host == parent || host.hasSuffix("." + parent)
    }
}

/// A hostname that failed validation (stand-in; see the file header).
public struct HostnameError: Error, Equatable, CustomStringConvertible {
    /// The rejected input.
    public let input: String
    /// Why it was rejected.
    public let reason: String
    /// A one-line lowercase message.
    public var description: String { "invalid hostname '\(input)': \(reason)" }
}
