import Foundation

extension Checker {
    /// Schemes a transform may set (constants.cc kAllowedTransformSchemes).
    static let allowedTransformSchemes = ["http", "https", "ftp", "chrome-extension"]

    /// Request headers Chromium lets `append` touch (indexed_rule.cc, kDNRRequestHeaderAppendAllowList).
    static let appendableRequestHeaders: Set<String> = [
        "accept", "accept-encoding", "accept-language", "access-control-request-headers", "cache-control",
        "connection", "content-language", "cookie", "forwarded", "if-match", "if-none-match", "keep-alive",
        "range", "te", "trailer", "transfer-encoding", "upgrade", "user-agent", "via", "want-digest",
        "x-forwarded-for",
    ]

    func checkRedirect(_ redirect: DNRRedirect?) throws {
        guard let redirect else { throw fail(DNRErrorMessages.invalidKey, key: "action.redirect", ["action.redirect"]) }
        if let url = redirect.url {
            guard let parsed = URLComponents(string: url), let scheme = parsed.scheme, !scheme.isEmpty else {
                throw fail(DNRErrorMessages.invalidRedirectURL, key: "action.redirect.url", ["action.redirect.url"])
            }
            if scheme.lowercased() == "javascript" {
                throw fail(DNRErrorMessages.javascriptRedirect, key: "action.redirect.url", ["action.redirect.url"])
            }
            return
        }
        if let path = redirect.extensionPath {
            if !path.hasPrefix("/") {
                throw fail(DNRErrorMessages.invalidKey, key: "action.redirect.extensionPath", ["action.redirect.extensionPath"])
            }
            return
        }
        if let transform = redirect.transform {
            if let scheme = transform.scheme, !Self.allowedTransformSchemes.contains(scheme) {
                throw fail(DNRErrorMessages.invalidTransformScheme, key: "action.redirect.transform.scheme",
                           ["action.redirect.transform.scheme", Self.allowedTransformSchemes.joined(separator: ", ")])
            }
            if let port = transform.port, !port.isEmpty, (UInt16(port) == nil || !port.allSatisfy(\.isASCII)) {
                throw fail(DNRErrorMessages.invalidKey, key: "action.redirect.transform.port", ["action.redirect.transform.port"])
            }
            if let query = transform.query, !query.isEmpty, !query.hasPrefix("?") {
                throw fail(DNRErrorMessages.invalidKey, key: "action.redirect.transform.query", ["action.redirect.transform.query"])
            }
            if let fragment = transform.fragment, !fragment.isEmpty, !fragment.hasPrefix("#") {
                throw fail(DNRErrorMessages.invalidKey, key: "action.redirect.transform.fragment", ["action.redirect.transform.fragment"])
            }
            if transform.query != nil && transform.queryTransform != nil {
                throw fail(DNRErrorMessages.queryAndTransformBoth, key: "action.redirect.transform.query",
                           ["action.redirect.transform.query", "action.redirect.transform.queryTransform"])
            }
            return
        }
        if redirect.regexSubstitution != nil { return }
        throw fail(DNRErrorMessages.invalidKey, key: "action.redirect", ["action.redirect"])
    }

    func checkModifyHeaders(_ action: DNRRuleAction) throws {
        if (action.requestHeaders?.isEmpty ?? true) && (action.responseHeaders?.isEmpty ?? true) {
            if action.requestHeaders != nil {
                throw fail(DNRErrorMessages.emptyList, key: "action.requestHeaders", ["requestHeaders"])
            }
            if action.responseHeaders != nil {
                throw fail(DNRErrorMessages.emptyList, key: "action.responseHeaders", ["responseHeaders"])
            }
            throw fail(DNRErrorMessages.noHeaderListsSpecified, key: "action.requestHeaders", ["requestHeaders", "responseHeaders"])
        }
        for (key, list) in [("requestHeaders", action.requestHeaders), ("responseHeaders", action.responseHeaders)] {
            guard let list else { continue }
            if list.isEmpty { throw fail(DNRErrorMessages.emptyList, key: "action.\(key)", [key]) }
            for info in list {
                if !HTTPHeaderName.isValid(info.header) {
                    throw fail(DNRErrorMessages.invalidHeaderName, key: "action.\(key)", [])
                }
                switch info.operation {
                case .append, .set:
                    guard let value = info.value else {
                        throw fail(DNRErrorMessages.noHeaderValueSpecified, key: "action.\(key)", [])
                    }
                    if value.contains("\r") || value.contains("\n") || value.contains("\0") {
                        throw fail(DNRErrorMessages.invalidHeaderValue, key: "action.\(key)", [])
                    }
                    if key == "requestHeaders", info.operation == .append,
                        !Self.appendableRequestHeaders.contains(info.header.lowercased()) {
                        throw fail(DNRErrorMessages.cannotAppendRequestHeader, key: "action.\(key)", [])
                    }
                case .remove:
                    if info.value != nil { throw fail(DNRErrorMessages.headerValuePresent, key: "action.\(key)", []) }
                }
            }
        }
    }
}
