import Foundation

extension CompiledRule {
    /// Everything but the URL pattern: cheap checks first.
    @inline(__always)
    func matchesConditions(_ request: DNRRequest, url: UnsafeBufferPointer<UInt8>) -> Bool {
        if resourceTypes & request.type.bit == 0 { return false }
        if let methods {
            // "Specifying requestMethods will also exclude non-HTTP(s) requests" (IDL).
            guard request.url.isHTTPFamily else { return rule.condition.requestMethods == nil }
            if methods & request.method.bit == 0 { return false }
        }
        if let tabIds, !tabIds.contains(request.tabId) { return false }
        if let excludedTabIds, excludedTabIds.contains(request.tabId) { return false }
        if let requestDomains,
            !Self.domainListAllows(requestDomains, hasIncludes: requestHasIncludes, host: url[request.url.hostRange]) {
            return false
        }
        if let initiatorDomains {
            if let initiator = request.initiator {
                let allowed = initiator.bytes.withUnsafeBufferPointer { bytes in
                    Self.domainListAllows(initiatorDomains, hasIncludes: initiatorHasIncludes, host: bytes[initiator.hostRange])
                }
                if !allowed { return false }
            } else if initiatorHasIncludes {
                // An opaque or missing initiator only satisfies rules without included initiator domains.
                return false
            }
        }
        if let topDomains, !topDomainsAllow(topDomains, request) { return false }
        if let domainType {
            let thirdParty = Self.isThirdParty(request)
            if thirdParty != (domainType == .thirdParty) { return false }
        }
        if rule.condition.responseHeaders != nil || rule.condition.excludedResponseHeaders != nil {
            guard let headers = request.responseHeaders, headerConditionsMatch(headers) else { return false }
        }
        return true
    }

    /// The URL pattern (urlFilter or regexFilter); absent matches every URL.
    @inline(__always)
    func matchesURL(_ request: DNRRequest, url: UnsafeBufferPointer<UInt8>) -> Bool {
        if let pattern { return pattern.matches(url, host: request.url.hostRange) }
        if let regex = regex?.regex {
            let text = request.url.string
            return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
        return rule.condition.regexFilter == nil
    }

    /// Chromium's rule for include/exclude lists: the longest listed domain that the
    /// host equals or is a subdomain of decides; an exclusion wins a tie; with no
    /// match the rule applies only if nothing is included
    /// (url_pattern_index.cc, DoesDomainMatch / GetLongestMatchingSubdomain).
    static func domainListAllows(_ entries: [DomainEntry], hasIncludes: Bool, host: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var longestInclude = -1
        var longestExclude = -1
        for entry in entries where entry.domain.count > (entry.include ? longestInclude : longestExclude) {
            if Hostname.isSameOrSubdomain(host, of: entry.domain) {
                if entry.include { longestInclude = entry.domain.count } else { longestExclude = entry.domain.count }
            }
        }
        if longestInclude < 0 && longestExclude < 0 { return !hasIncludes }
        return longestInclude > longestExclude
    }

    /// topDomains/excludedTopDomains test the top-level frame's host: the request's own
    /// host for a main-frame navigation, else the top document, else (no frame, e.g. a
    /// service worker) the initiator, as Chrome documents; with no host at all only
    /// rules without included top domains apply.
    private func topDomainsAllow(_ entries: [DomainEntry], _ request: DNRRequest) -> Bool {
        let top = request.type == .mainFrame ? request.url : (request.frames.first ?? request.initiator)
        guard let top else { return !topHasIncludes }
        return top.bytes.withUnsafeBufferPointer { bytes in
            Self.domainListAllows(entries, hasIncludes: topHasIncludes, host: bytes[top.hostRange])
        }
    }

    /// Third-party means a different registrable domain from the initiator; an opaque
    /// or missing initiator makes every request third-party (request_params.cc,
    /// IsThirdPartyRequest with an opaque origin).
    static func isThirdParty(_ request: DNRRequest) -> Bool {
        guard let initiator = request.initiator else { return true }
        return Hostname.registrableDomain(request.url.host) != Hostname.registrableDomain(initiator.host)
    }

    private func headerConditionsMatch(_ headers: [String: String]) -> Bool {
        func valueMatches(_ value: String, _ patterns: [String]) -> Bool {
            patterns.contains { pattern in
                URLFilterPattern(pattern, caseSensitive: false).globMatches(value)
            }
        }
        if let wanted = rule.condition.responseHeaders {
            let any = wanted.contains { info in
                guard let value = headers[info.header.lowercased()] else { return false }
                if let excluded = info.excludedValues, valueMatches(value, excluded) { return false }
                return info.values.map { valueMatches(value, $0) } ?? true
            }
            if !any { return false }
        }
        if let unwanted = rule.condition.excludedResponseHeaders {
            let hit = unwanted.contains { info in
                guard let value = headers[info.header.lowercased()] else { return false }
                if let excluded = info.excludedValues, valueMatches(value, excluded) { return false }
                return info.values.map { valueMatches(value, $0) } ?? true
            }
            if hit { return false }
        }
        return true
    }
}

extension URLFilterPattern {
    /// Whole-string glob match (`*` only), used for response-header values.
    func globMatches(_ text: String) -> Bool {
        let value = Array(text.utf8)
        let anchored = URLFilterPattern(reanchoring: self)
        return value.withUnsafeBufferPointer { anchored.matches($0, host: 0..<0) }
    }

    private init(reanchoring other: URLFilterPattern) {
        self.init(leftAnchor: .boundary, rightAnchor: true, segments: other.segments, caseSensitive: other.caseSensitive)
    }
}
