/// A documented, expected difference between Chromium's DNR semantics and what
/// Safari does with the same rules after WebKit's translation (Sources/BlockerCore/README.md).
public enum KnownDivergence: String, Sendable, CaseIterable, Codable {
    /// Chromium's `^` also matches the end of the URL; WebKit's `[^a-zA-Z0-9_.%-]` needs a character.
    case separatorAtEnd = "separator-at-end"
    /// WebKit has no content-blocker type for object, csp_report, webtransport or webbundle and drops them.
    case unmappedResourceType = "unmapped-resource-type"
    /// WebKit turns requestDomains/domains into if-domain, which tests the main document, not the request.
    case requestDomainsTestMainDocument = "request-domains-test-main-document"
    /// WebKit tests domainType (load-type) against the main document and initiator domains against the frame URL.
    case partyFromMainDocument = "party-from-main-document"
    /// WebKit's translator does not know topDomains/excludedTopDomains and ignores them.
    case topDomainsIgnored = "top-domains-ignored"
    /// WebKit's allowAllRequests only covers the top document (if-top-url), not sub_frame documents.
    case allowAllRequestsTopOnly = "allow-all-requests-top-only"

    /// One line: why the two engines disagree.
    public var explanation: String {
        switch self {
        case .separatorAtEnd:
            "chromium's '^' also matches the end of the url; webkit translates '^' to [^a-zA-Z0-9_.%-], which needs a character"
        case .unmappedResourceType:
            "webkit has no content-blocker resource type for this dnr type and drops it from the rule"
        case .requestDomainsTestMainDocument:
            "webkit maps requestDomains/domains to if-domain/unless-domain, which test the main document's host"
        case .partyFromMainDocument:
            "webkit evaluates domainType against the main document and initiator domains against the frame url"
        case .topDomainsIgnored:
            "webkit's translator does not read topDomains/excludedTopDomains, so the rule applies on every top-level site"
        case .allowAllRequestsTopOnly:
            "webkit's allowAllRequests becomes if-top-url and does not cover sub_frame documents"
        }
    }
}
