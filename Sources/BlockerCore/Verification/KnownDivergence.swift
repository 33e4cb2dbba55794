/// A documented, expected difference between Chromium's DNR semantics and what Safari does with
/// the same rules after WebKit's translation (Sources/BlockerCore/README.md; each case names the
/// WebKit code it comes from).
public enum KnownDivergence: String, Sendable, CaseIterable, Codable {
    /// Chromium's `^` also matches the end of the URL; WebKit's `[^a-zA-Z0-9_.%-]` needs a character.
    case separatorAtEnd = "separator-at-end"
    /// WebKit has no content-blocker type for object, csp_report, webtransport or webbundle: it
    /// drops them from a rule, and a rule that listed only such types applies to every type.
    case unmappedResourceType = "unmapped-resource-type"
    /// WebKit writes requestDomains into the urlFilter as text (`||domain`, spliced into a
    /// urlFilter by `_combineRequestDomain`), so `ads.example` also matches `ads.example.evil.test`
    /// and a combined filter can match nothing; with a regexFilter it ignores them.
    case requestDomainsAsURLFilter = "request-domains-as-url-filter"
    /// WebKit turns each excludedRequestDomains entry into an `ignore-following-rules` rule whose
    /// url-filter is the bare domain, matched anywhere in the URL (`?r=apple.com` too).
    case excludedRequestDomainsUnanchored = "excluded-request-domains-unanchored"
    /// An exclusion (excluded request domain, method or initiator) is an `ignore-following-rules`
    /// rule, so it also exempts the request from every lower-ranked rule of the extension.
    case exclusionsEndEvaluation = "exclusions-end-evaluation"
    /// `domains`/`excludedDomains` become if-domain/unless-domain, which test the main document.
    case domainsTestMainDocument = "domains-test-main-document"
    /// WebKit tests domainType (load-type) against the main document and initiator domains against the frame URL.
    case partyFromMainDocument = "party-from-main-document"
    /// WebKit's translator does not read topDomains, excludedTopDomains, tabIds, excludedTabIds
    /// or response-header conditions: the rule applies as if they were absent.
    case unreadConditionKeys = "unread-condition-keys"
    /// WebKit's allowAllRequests is an `if-top-url` (main_frame) or a child-frame `if-frame-url`
    /// (sub_frame only) rule, not Chromium's per-frame inheritance.
    case allowAllRequestsFrames = "allow-all-requests-frames"
    /// WebKit queues every matching action and any `block` wins, so a lower-priority block
    /// beats a higher-priority redirect.
    case blockOutranksRedirect = "block-outranks-redirect"
    /// Redirect targets differ: WebKit's regex-substitution is the whole new URL, its order of
    /// precedence is extension-path, regex-substitution, transform, url, and make-https also
    /// upgrades ws: (Chromium: http and ftp).
    case redirectSemantics = "redirect-semantics"
    /// WebKit parses modifyHeaders responseHeaders and never applies them (applyResultsToRequest).
    case responseHeadersNotApplied = "response-headers-not-applied"
    /// WebKit lets an append follow a set and joins appended values with `; `; Chromium ignores
    /// it and joins with `, `.
    case headerAppendRules = "header-append-rules"

    /// One line: why the two engines disagree.
    public var explanation: String {
        switch self {
        case .separatorAtEnd:
            "chromium's '^' also matches the end of the url; webkit translates '^' to [^a-zA-Z0-9_.%-], which needs a character"
        case .unmappedResourceType:
            "webkit has no content-blocker resource type for this dnr type; it drops it, and a rule left with none applies to every type"
        case .requestDomainsAsURLFilter:
            "webkit writes requestDomains into the url-filter as text (||domain, spliced into a urlFilter), not as a host list"
        case .excludedRequestDomainsUnanchored:
            "webkit turns each excluded request domain into an ignore-following-rules rule matching that text anywhere in the url"
        case .exclusionsEndEvaluation:
            "webkit's exclusions are ignore-following-rules rules, which also exempt the request from every lower-ranked rule"
        case .domainsTestMainDocument:
            "webkit maps domains/excludedDomains to if-domain/unless-domain, which test the main document's host"
        case .partyFromMainDocument:
            "webkit evaluates domainType against the main document and initiator domains against the frame url"
        case .unreadConditionKeys:
            "webkit's translator does not read topDomains, tabIds or response-header conditions, so the rule applies without them"
        case .allowAllRequestsFrames:
            "webkit's allowAllRequests is an if-top-url or child-frame if-frame-url rule, not chromium's per-frame inheritance"
        case .blockOutranksRedirect:
            "webkit applies every matching action and a block wins over a higher-priority redirect"
        case .redirectSemantics:
            "webkit's redirect differs: regex-substitution is the whole url, extension-path/regex/transform/url precedence, ws upgrades"
        case .responseHeadersNotApplied:
            "webkit parses modifyHeaders responseHeaders but never applies them"
        case .headerAppendRules:
            "webkit applies an append after a set and joins appended values with '; '; chromium ignores it and joins with ', '"
        }
    }
}
