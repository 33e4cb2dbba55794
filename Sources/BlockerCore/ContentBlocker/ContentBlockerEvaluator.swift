/// Decides loads against Content Blocker rules as WebKit does: every rule whose
/// trigger matches queues its action in order; `ignore-previous-rules` drops what
/// was queued before it; `ignore-following-rules` ends the evaluation
/// (WebCore/contentextensions/ContentExtensionsBackend.cpp, actionsForResourceLoad).
///
/// WebKit compiles all url-filters into one DFA; here rules whose url-filter pins
/// the request host (`^[^:]+://+([^:/]+\.)?host` followed by a separator) are
/// indexed by that host, and the rest are tried for every load.
public final class ContentBlockerEvaluator: Sendable {
    /// The rules, in order.
    public let rules: [ContentBlockerRule]
    let compiled: [CompiledTrigger]
    let index: HostSuffixIndex
    let generic: [Int32]

    /// Compiles `rules`.
    /// - Throws: `InputError` naming the rule index (`[3].trigger.url-filter`) when a regex is outside WebKit's subset.
    public init(rules: [ContentBlockerRule]) throws {
        var compiled: [CompiledTrigger] = []
        var byHost: [String: [Int32]] = [:]
        var generic: [Int32] = []
        for (number, rule) in rules.enumerated() {
            let trigger = try CompiledTrigger(rule.trigger, index: number)
            compiled.append(trigger)
            if let host = Self.indexHost(rule.trigger.urlFilter) {
                byHost[host, default: []].append(Int32(number))
            } else {
                generic.append(Int32(number))
            }
        }
        self.rules = rules
        self.compiled = compiled
        self.index = HostSuffixIndex(byHost)
        self.generic = generic
    }

    /// Decides one load.
    public func decide(_ request: ContentBlockerRequest) -> ContentBlockerDecision {
        var candidates: [Int32] = generic
        request.url.bytes.withUnsafeBufferPointer { url in
            index.forEachMatch(url, host: request.url.hostRange) { candidates.append($0) }
        }
        if candidates.count > generic.count { candidates.sort() }
        var applied: [Int] = []
        for number in candidates {
            let rule = Int(number)
            guard compiled[rule].matches(request) else { continue }
            switch rules[rule].action.type {
            case .ignorePreviousRules:
                applied.removeAll()
            case .ignoreFollowingRules:
                return ContentBlockerDecision(ruleIndices: applied, actions: applied.map { rules[$0].action.type })
            default:
                applied.append(rule)
            }
        }
        return ContentBlockerDecision(ruleIndices: applied, actions: applied.map { rules[$0].action.type })
    }

    /// The css-display-none selectors WebKit injects into a page at `pageURL`: the
    /// rules whose trigger matches the page's own document load, with the same
    /// ignore-previous-rules and ignore-following-rules semantics.
    public func cssDisplayNoneSelectors(pageURL: DNRURL) -> [String] {
        let request = ContentBlockerRequest(url: pageURL, resourceType: .document, isTopFrameLoad: true, topURL: pageURL, frameURL: nil)
        var selectors: [String] = []
        let kinds: Set<ContentBlockerAction.Kind> = [.cssDisplayNone, .ignorePreviousRules, .ignoreFollowingRules]
        for (number, rule) in rules.enumerated() where kinds.contains(rule.action.type) {
            guard compiled[number].matches(request) else { continue }
            if rule.action.type == .ignorePreviousRules {
                selectors.removeAll()
            } else if rule.action.type == .ignoreFollowingRules {
                break
            } else if let selector = rule.action.selector {
                selectors.append(selector)
            }
        }
        return selectors
    }

    /// The host a url-filter pins, when it starts with the `||` translation and the
    /// literal host is followed by a separator class, `/` or `:`.
    static func indexHost(_ filter: String) -> String? {
        let prefix = "^[^:]+://+([^:/]+\\.)?"
        guard filter.hasPrefix(prefix) else { return nil }
        var rest = filter.dropFirst(prefix.count)
        var host = ""
        while let character = rest.first {
            if character == "\\", rest.dropFirst().first == "." {
                host.append(".")
                rest = rest.dropFirst(2)
            } else if character.isASCII, character.isLetter || character.isNumber || character == "-" || character == "_" {
                host.append(Character(character.lowercased()))
                rest = rest.dropFirst()
            } else {
                break
            }
        }
        let pinned = rest.hasPrefix("[^a-zA-Z0-9_.%-]") || rest.hasPrefix("/") || rest.hasPrefix(":")
        guard pinned, !host.isEmpty, !host.hasPrefix("."), !host.hasSuffix(".") else { return nil }
        return host
    }
}
