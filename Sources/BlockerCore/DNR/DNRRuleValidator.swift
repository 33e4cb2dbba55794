/// Validates DNR rules the way Chromium does before indexing them
/// (extensions/browser/api/declarative_net_request/indexed_rule.cc,
/// IndexedRule::CreateIndexedRule, and ruleset-level checks in
/// declarative_net_request_api.cc / rules_monitor_service.cc), reporting Chromium's messages.
public enum DNRRuleValidator {
    /// Validates one rule; `source` decides whether tab ids are allowed (session only).
    /// - Throws: `DNRValidationError` for the first problem, in Chromium's check order.
    public static func validate(_ rule: DNRRule, source: DNRRuleset.Source = .dynamic, index: Int? = nil) throws {
        let checker = Checker(rule: rule, index: index)
        try checker.checkBasics()
        try checker.checkLists(source: source)
        try checker.checkFilters()
        try checker.checkAction()
    }

    /// Validates a whole ruleset: every rule, unique ids, and the count limits for its source.
    /// - Returns: every error found (empty when valid); per rule only the first error, as Chromium reports.
    public static func validate(ruleset rules: [DNRRule], source: DNRRuleset.Source) -> [DNRValidationError] {
        var errors: [DNRValidationError] = []
        var seen = Set<Int>()
        for (index, rule) in rules.enumerated() {
            // Chromium checks the id's uniqueness before parsing the rule (indexing in ruleset_source.cc).
            if !seen.insert(rule.id).inserted {
                errors.append(DNRValidationError(
                    ruleID: rule.id, ruleIndex: index, key: "id",
                    message: DNRErrorMessages.format(DNRErrorMessages.duplicateIDs, ["\(rule.id)"])))
                continue
            }
            do {
                try validate(rule, source: source, index: index)
            } catch let error as DNRValidationError {
                errors.append(error)
            } catch {
                continue
            }
        }
        let regexCount = rules.filter { $0.condition.regexFilter != nil }.count
        let (limit, regexLimit, message, regexMessage): (Int, Int, String, String) =
            switch source {
            case .staticRuleset:
                (DNRLimits.guaranteedMinimumStaticRules, DNRLimits.maxRegexRules,
                 DNRErrorMessages.ruleCountExceeded, DNRErrorMessages.regexRuleCountExceeded)
            case .dynamic:
                (DNRLimits.maxDynamicRules, DNRLimits.maxRegexRules,
                 DNRErrorMessages.dynamicRuleCountExceeded, DNRErrorMessages.dynamicRegexRuleCountExceeded)
            case .session:
                (DNRLimits.maxSessionRules, DNRLimits.maxRegexRules,
                 DNRErrorMessages.sessionRuleCountExceeded, DNRErrorMessages.sessionRegexRuleCountExceeded)
            }
        if rules.count > limit { errors.append(DNRValidationError(ruleID: nil, key: nil, message: message)) }
        if regexCount > regexLimit { errors.append(DNRValidationError(ruleID: nil, key: nil, message: regexMessage)) }
        return errors
    }
}
