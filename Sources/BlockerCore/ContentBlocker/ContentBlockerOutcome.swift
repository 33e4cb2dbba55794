extension ContentBlockerDecision {
    /// What WebKit does with these actions (WebCore/contentextensions/ContentExtensionsBackend.cpp,
    /// processContentRuleListsForLoad and applyResultsToRequest): any `block` blocks the load
    /// whatever else matched, even a higher-priority redirect; otherwise `make-https` upgrades an
    /// http (or ws) URL, the `redirect` actions are applied in list order, and the `modify-headers`
    /// actions apply by descending priority. Redirects and header changes are "active" actions,
    /// applied only when `mayChange` says the extension has access to the URL
    /// (allowsActiveContentRuleListActionsForURL).
    /// - Parameters:
    ///   - translation: the translation the evaluator was built from (for each action's DNR rule).
    ///   - url: the request URL.
    ///   - extensionBaseURL: where `extension-path` redirects resolve.
    ///   - mayChange: whether redirects and header changes may apply to `url`.
    public func outcome(_ translation: ContentBlockerTranslation, url: DNRURL, extensionBaseURL: String,
                        mayChange: Bool = true) -> DNROutcome {
        let entries = ruleIndices.map { (kind: translation.rules[$0].action.type, origin: translation.origins[$0], source: translation.sources[$0]) }
        if let block = entries.first(where: { $0.kind == .block }) {
            return DNROutcome(effect: .block, rule: block.origin, headerRules: [])
        }
        var effect = DNROutcome.Effect.none
        var decider: DNRMatchedRule?
        if let upgrade = entries.first(where: { $0.kind == .makeHTTPS }), let target = Self.madeHTTPS(url) {
            effect = .upgrade(url: target)
            decider = upgrade.origin
        }
        var current = effect == .none ? url.string : (Self.madeHTTPS(url) ?? url.string)
        if mayChange {
            for redirect in entries where redirect.kind == .redirect {
                guard let target = DNRRedirectTarget.webKit(redirect.source, url: current, extensionBaseURL: extensionBaseURL), target != current else { continue }
                current = target
                effect = .redirect(url: target)
                decider = redirect.origin
            }
        }
        var headers: [DNROutcome.HeaderRule] = []
        if mayChange {
            // Descending priority; the list is already in WebKit's order, which is stable for equals.
            let changes = entries.filter { $0.kind == .modifyHeaders }
            var seen = Set<DNRMatchedRule>()
            for entry in changes.sorted(by: { $0.origin.priority > $1.origin.priority }) where seen.insert(entry.origin).inserted {
                headers.append(DNROutcome.HeaderRule(rule: entry.origin, requestHeaders: entry.source.action.requestHeaders ?? [],
                                                     responseHeaders: entry.source.action.responseHeaders ?? []))
            }
        }
        return DNROutcome(effect: effect, rule: decider, headerRules: headers)
    }

    /// `make-https`: http → https and ws → wss, dropping an explicit default port
    /// (WebKit's make-https action); nil for other schemes.
    static func madeHTTPS(_ url: DNRURL) -> String? {
        let text = url.string
        for (from, to, port) in [("http://", "https://", ":80"), ("ws://", "wss://", ":80")] where text.lowercased().hasPrefix(from) {
            var rest = String(text.dropFirst(from.count))
            let hostEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
            if rest[..<hostEnd].hasSuffix(port) {
                rest.removeSubrange(rest.index(hostEnd, offsetBy: -port.count)..<hostEnd)
            }
            return to + rest
        }
        return nil
    }
}
