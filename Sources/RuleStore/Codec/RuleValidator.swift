import BlockerCore

/// Checks single records against the format's rules, caching hostname normalization.
struct RuleValidator {
    /// Longest accepted id.
    static let maxIDLength = 128
    /// Longest accepted selector, in UTF-16 code units (what the extension measures).
    static let maxSelectorLength = 4096
    /// Largest `modifiedAt`: JavaScript's `Number.MAX_SAFE_INTEGER`, so the extension reads it exactly.
    static let maxTimestamp: Int64 = 9_007_199_254_740_991

    private var normalized: [String: NormalizedHost] = [:]

    private enum NormalizedHost {
        case valid(String)
        case invalid(String)
    }

    /// - Throws: `RuleStoreError.invalidDocument` naming `keyPath` plus the offending field.
    mutating func check(_ rule: PersonalRule, at keyPath: @autoclosure () -> String) throws(RuleStoreError) {
        try Self.checkID(rule.id, at: keyPath() + ".id")
        let canonical = try normalize(rule.hostname, at: keyPath() + ".hostname")
        guard canonical == rule.hostname else {
            throw .invalidDocument(
                file: nil, keyPath: keyPath() + ".hostname",
                reason: "hostname '\(rule.hostname)' is not normalized; write '\(canonical)'")
        }
        try Self.checkSelector(rule.selector, at: keyPath() + ".selector")
        guard (0...Self.maxTimestamp).contains(rule.modifiedAt) else {
            throw .invalidDocument(
                file: nil, keyPath: keyPath() + ".modifiedAt",
                reason: "\(rule.modifiedAt) is outside 0...\(Self.maxTimestamp) milliseconds")
        }
    }

    /// The normalized form of `hostname`.
    /// - Throws: `RuleStoreError.invalidDocument` at `keyPath` when it is not a hostname.
    mutating func normalize(_ hostname: String, at keyPath: @autoclosure () -> String) throws(RuleStoreError) -> String {
        let result: NormalizedHost
        if let cached = normalized[hostname] {
            result = cached
        } else {
            do {
                result = .valid(try Hostname.normalize(hostname))
            } catch {
                result = .invalid("\(error)")
            }
            normalized[hostname] = result
        }
        switch result {
        case .valid(let value): return value
        case .invalid(let message):
            throw .invalidDocument(file: nil, keyPath: keyPath(), reason: message)
        }
    }

    static func checkID(_ id: String, at keyPath: @autoclosure () -> String) throws(RuleStoreError) {
        let allowed = id.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2E || byte == 0x5F || byte == 0x3A || byte == 0x2D
        }
        guard !id.isEmpty, id.utf8.count <= maxIDLength, allowed else {
            throw .invalidDocument(
                file: nil, keyPath: keyPath(),
                reason: "id '\(id)' must be 1 to \(maxIDLength) characters of A-Z a-z 0-9 . _ : -")
        }
    }

    static func checkSelector(_ selector: String, at keyPath: @autoclosure () -> String) throws(RuleStoreError) {
        // One pass over the bytes; the Unicode-aware checks run only for non-ASCII selectors.
        var ascii = true, blank = true, control = false
        for byte in selector.utf8 {
            if byte >= 0x80 { ascii = false } else if byte < 0x20 || byte == 0x7F { control = true }
            if byte != 0x20 { blank = false }
        }
        if blank || (!ascii && selector.allSatisfy(\.isWhitespace)) {
            throw .invalidDocument(file: nil, keyPath: keyPath(), reason: "empty selector")
        }
        let length = ascii ? selector.utf8.count : selector.utf16.count
        if length > maxSelectorLength {
            throw .invalidDocument(
                file: nil, keyPath: keyPath(),
                reason: "selector is \(length) characters, over the limit of \(maxSelectorLength)")
        }
        // One selector a line is how bulk entry and the picker hand selectors over.
        if control || (!ascii && selector.unicodeScalars.contains(where: { $0.value == 0x7F || (0x80..<0xA0).contains($0.value) })) {
            throw .invalidDocument(
                file: nil, keyPath: keyPath(), reason: "selector contains a line break or control character")
        }
    }
}
