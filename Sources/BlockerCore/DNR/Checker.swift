/// The per-rule checks, split by concern; each throws Chromium's error.
struct Checker {
    let rule: DNRRule
    let index: Int?

    func fail(_ template: String, key: String?, _ values: [String]) -> DNRValidationError {
        DNRValidationError(
            ruleID: rule.id, ruleIndex: index, key: key,
            message: DNRErrorMessages.format(template, ["\(rule.id)"] + values))
    }

    func checkBasics() throws {
        if rule.id < 1 { throw fail(DNRErrorMessages.invalidRuleKey, key: "id", ["id", "1"]) }
        if let priority = rule.priority, priority < 1 {
            throw fail(DNRErrorMessages.invalidRuleKey, key: "priority", ["priority", "1"])
        }
        let condition = rule.condition
        if condition.urlFilter != nil && condition.regexFilter != nil {
            throw fail(DNRErrorMessages.multipleFilters, key: "regexFilter", ["urlFilter", "regexFilter"])
        }
        if condition.domains != nil && condition.initiatorDomains != nil {
            throw fail(DNRErrorMessages.domainsAndInitiatorDomains, key: "domains", ["domains", "initiatorDomains"])
        }
        if condition.excludedDomains != nil && condition.excludedInitiatorDomains != nil {
            throw fail(DNRErrorMessages.domainsAndInitiatorDomains, key: "excludedDomains", ["excludedDomains", "excludedInitiatorDomains"])
        }
        if rule.action.redirect?.regexSubstitution != nil && condition.regexFilter == nil {
            throw fail(DNRErrorMessages.regexSubstitutionWithoutFilter, key: "action.redirect.regexSubstitution",
                       ["regexSubstitution", "regexFilter"])
        }
    }

    func checkLists(source: DNRRuleset.Source) throws {
        let c = rule.condition
        // Empty lists: Chromium refuses an empty include list (it would match nothing).
        let includeLists: [(String, Int?)] = [
            ("domains", c.domains?.count), ("initiatorDomains", c.initiatorDomains?.count),
            ("requestDomains", c.requestDomains?.count), ("topDomains", c.topDomains?.count),
            ("resourceTypes", c.resourceTypes?.count),
            ("requestMethods", c.requestMethods?.count), ("tabIds", c.tabIds?.count),
        ]
        for (key, count) in includeLists where count == 0 {
            throw fail(DNRErrorMessages.emptyList, key: key, [key])
        }
        let domainLists: [(String, [String]?)] = [
            ("domains", c.domains), ("excludedDomains", c.excludedDomains),
            ("initiatorDomains", c.initiatorDomains), ("excludedInitiatorDomains", c.excludedInitiatorDomains),
            ("requestDomains", c.requestDomains), ("excludedRequestDomains", c.excludedRequestDomains),
            ("topDomains", c.topDomains), ("excludedTopDomains", c.excludedTopDomains),
        ]
        for (key, list) in domainLists {
            if let list, list.contains(where: { !$0.unicodeScalars.allSatisfy(\.isASCII) }) {
                throw fail(DNRErrorMessages.nonAscii, key: key, [key])
            }
        }
        if let included = c.resourceTypes, let excluded = c.excludedResourceTypes,
            !Set(included).isDisjoint(with: excluded) {
            throw fail(DNRErrorMessages.resourceTypeDuplicated, key: "excludedResourceTypes", [])
        }
        if c.resourceTypes == nil, let excluded = c.excludedResourceTypes,
            Set(excluded).count == DNRResourceType.allCases.count {
            throw fail(DNRErrorMessages.noApplicableResourceTypes, key: "excludedResourceTypes", [])
        }
        if let included = c.requestMethods, let excluded = c.excludedRequestMethods,
            !Set(included).isDisjoint(with: excluded) {
            throw fail(DNRErrorMessages.requestMethodDuplicated, key: "excludedRequestMethods", [])
        }
        if c.tabIds != nil || c.excludedTabIds != nil {
            if source != .session {
                throw fail(DNRErrorMessages.tabIdsOnNonSessionRule, key: "tabIds", ["tabIds", "excludedTabIds"])
            }
            if let included = c.tabIds, let excluded = c.excludedTabIds, !Set(included).isDisjoint(with: excluded) {
                throw fail(DNRErrorMessages.tabIdDuplicated, key: "excludedTabIds", [])
            }
        }
        for (key, list) in [("responseHeaders", c.responseHeaders), ("excludedResponseHeaders", c.excludedResponseHeaders)] {
            guard let list else { continue }
            if list.isEmpty { throw fail(DNRErrorMessages.emptyList, key: key, [key]) }
            if list.contains(where: { !HTTPHeaderName.isValid($0.header) }) {
                throw fail(DNRErrorMessages.invalidKey, key: key, [key])
            }
        }
    }

    func checkFilters() throws {
        let c = rule.condition
        if let filter = c.urlFilter {
            if filter.isEmpty { throw fail(DNRErrorMessages.emptyKey, key: "urlFilter", ["urlFilter"]) }
            if !filter.unicodeScalars.allSatisfy(\.isASCII) {
                throw fail(DNRErrorMessages.nonAscii, key: "urlFilter", ["urlFilter"])
            }
            // "A pattern beginning with ||* is not allowed. Use * instead." (IDL, urlFilter).
            if filter.hasPrefix("||*") { throw fail(DNRErrorMessages.invalidKey, key: "urlFilter", ["urlFilter"]) }
        }
        if let regex = c.regexFilter {
            if regex.isEmpty { throw fail(DNRErrorMessages.emptyKey, key: "regexFilter", ["regexFilter"]) }
            if !regex.unicodeScalars.allSatisfy(\.isASCII) {
                throw fail(DNRErrorMessages.nonAscii, key: "regexFilter", ["regexFilter"])
            }
            switch DNRRegexFilter.check(regex) {
            case .valid: break
            case .invalid: throw fail(DNRErrorMessages.invalidKey, key: "regexFilter", ["regexFilter"])
            case .tooLarge: throw fail(DNRErrorMessages.regexTooLarge, key: "regexFilter", ["regexFilter"])
            }
        }
    }

    func checkAction() throws {
        let action = rule.action
        switch action.type {
        case .allowAllRequests:
            // The types must be given and be frames only (indexed_rule.cc).
            guard let types = rule.condition.resourceTypes,
                types.allSatisfy({ $0 == .mainFrame || $0 == .subFrame })
            else { throw fail(DNRErrorMessages.invalidAllowAllRequestsResourceType, key: "resourceTypes", []) }
        case .redirect:
            try checkRedirect(action.redirect)
        case .modifyHeaders:
            try checkModifyHeaders(action)
        case .block, .allow, .upgradeScheme:
            break
        }
    }
}
