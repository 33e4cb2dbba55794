import BlockerCore
import Foundation
import WebRuntime

/// An extension's declarativeNetRequest state: static rulesets (and which are enabled), dynamic
/// rules (kept across browser restarts), session rules (lost on restart), the matched-rule log
/// getMatchedRules reads, and the engines that decide requests.
final class DNRState {
    struct StaticRuleset {
        let id: String
        let index: Int
        let rules: [DNRRule]
    }

    /// One rule match, as getMatchedRules reports it.
    struct MatchRecord {
        let rule: DNRMatchedRule
        let url: String
        let tabID: Int
        let time: Double
    }

    let staticRulesets: [StaticRuleset]
    var enabled: Set<String>
    /// Static rules turned off one by one (updateStaticRules), by ruleset id; kept while the
    /// ruleset is disabled, as in Chrome.
    var disabledStaticRules: [String: Set<Int>] = [:]
    var dynamicRules: [DNRRule] = []
    var sessionRules: [DNRRule] = []
    var matches: [MatchRecord] = []
    /// getMatchedRules call times (virtual ms) for the quota.
    var feedbackCalls: [Double] = []
    /// Where `extensionPath` redirects go: the extension's base URL without its final slash.
    let extensionBaseURL: String
    private var cachedMatcher: DNRMatcher?
    private var cachedEvaluator: (evaluator: ContentBlockerEvaluator, translation: ContentBlockerTranslation)?

    /// Loads the manifest's rule files.
    /// - Throws: ``ManifestError`` naming the rule file and the position of a bad rule.
    init(bundle: ExtensionBundle) throws {
        var rulesets: [StaticRuleset] = []
        for (index, entry) in bundle.manifest.rulesets.enumerated() {
            let url = bundle.folder.appendingPathComponent(entry.path)
            let data = FileManager.default.contents(atPath: url.path) ?? Data()
            do {
                let rules = try DNRRuleset.decodeRules(from: data, file: url.path, unknownKeys: .ignore)
                if let error = DNRRuleValidator.validate(ruleset: rules, source: .staticRuleset(index: index)).first {
                    throw ManifestError(file: url.path, keyPath: error.keyPath ?? "", reason: error.message)
                }
                rulesets.append(StaticRuleset(id: entry.id, index: index, rules: rules))
            } catch let error as InputError {
                throw ManifestError(file: url.path, keyPath: error.position ?? "", reason: error.message)
            }
        }
        staticRulesets = rulesets
        let base = bundle.url("")
        extensionBaseURL = base.hasSuffix("/") ? String(base.dropLast()) : base
        enabled = Set(bundle.manifest.rulesets.filter(\.enabled).map(\.id))
    }

    /// The rule sets in force.
    var rulesets: [DNRRuleset] {
        var sets = staticRulesets.filter { enabled.contains($0.id) }.map { ruleset in
            let off = disabledStaticRules[ruleset.id] ?? []
            return DNRRuleset(id: ruleset.id, source: .staticRuleset(index: ruleset.index),
                              rules: off.isEmpty ? ruleset.rules : ruleset.rules.filter { !off.contains($0.id) })
        }
        if !dynamicRules.isEmpty { sets.append(DNRRuleset(id: "_dynamic", source: .dynamic, rules: dynamicRules)) }
        if !sessionRules.isEmpty { sets.append(DNRRuleset(id: "_session", source: .session, rules: sessionRules)) }
        return sets
    }

    /// Forgets the compiled engines after a rule change.
    func invalidate() {
        cachedMatcher = nil
        cachedEvaluator = nil
    }

    /// The DNR matcher (Chromium's semantics).
    var matcher: DNRMatcher {
        if let cachedMatcher { return cachedMatcher }
        let made = DNRMatcher(rulesets: rulesets, extensionBaseURL: extensionBaseURL)
        cachedMatcher = made
        return made
    }

    /// The rules translated to WebKit Content Blocker rules, as Safari applies them, with the DNR
    /// rule each came from. Rules WebKit cannot translate are left out, as Safari drops them.
    var contentBlocker: (evaluator: ContentBlockerEvaluator, translation: ContentBlockerTranslation)? {
        if let cachedEvaluator { return cachedEvaluator }
        let translation = ContentBlockerTranslator.translate(rulesets)
        guard let evaluator = try? ContentBlockerEvaluator(rules: translation.rules) else { return nil }
        cachedEvaluator = (evaluator, translation)
        return cachedEvaluator
    }
}
