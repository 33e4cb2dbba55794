import Testing
@testable import BlockerCore

private func block(_ condition: DNRRuleCondition, id: Int = 5, priority: Int? = nil) -> DNRRule {
    DNRRule(id: id, priority: priority, condition: condition, action: DNRRuleAction(type: .block))
}

/// Each invalid rule gets Chromium's message (constants.cc) with the id and key filled in.
@Test(arguments: [
    (block(DNRRuleCondition(), id: 0), "Rule with id 0 has an invalid value for id key. This should be greater than or equal to 1."),
    (block(DNRRuleCondition(), priority: 0), "Rule with id 5 has an invalid value for priority key. This should be greater than or equal to 1."),
    (block(DNRRuleCondition(urlFilter: "")), "Rule with id 5 cannot have an empty value for urlFilter key."),
    (block(DNRRuleCondition(urlFilter: "||*ads")), "Rule with id 5 specifies an incorrect value for the \"urlFilter\" key."),
    (block(DNRRuleCondition(urlFilter: "||rеклама.example")), "Rule with id 5 cannot have non-ascii characters as part of \"urlFilter\" key."),
    (block(DNRRuleCondition(urlFilter: "a", regexFilter: "b")), "Rule with id 5 can only specify one of \"urlFilter\" or \"regexFilter\" keys."),
    (block(DNRRuleCondition(resourceTypes: [])), "Rule with id 5 cannot have an empty list as the value for resourceTypes key."),
    (block(DNRRuleCondition(initiatorDomains: [])), "Rule with id 5 cannot have an empty list as the value for initiatorDomains key."),
    (block(DNRRuleCondition(requestDomains: [])), "Rule with id 5 cannot have an empty list as the value for requestDomains key."),
    (block(DNRRuleCondition(requestMethods: [])), "Rule with id 5 cannot have an empty list as the value for requestMethods key."),
    (block(DNRRuleCondition(topDomains: [])), "Rule with id 5 cannot have an empty list as the value for topDomains key."),
    (block(DNRRuleCondition(excludedTopDomains: ["bücher.example"])), "Rule with id 5 cannot have non-ascii characters as part of \"excludedTopDomains\" key."),
    (block(DNRRuleCondition(requestDomains: ["bücher.example"])), "Rule with id 5 cannot have non-ascii characters as part of \"requestDomains\" key."),
    (block(DNRRuleCondition(excludedInitiatorDomains: ["bücher.example"])), "Rule with id 5 cannot have non-ascii characters as part of \"excludedInitiatorDomains\" key."),
    (block(DNRRuleCondition(resourceTypes: [.image], excludedResourceTypes: [.image])), "Rule with id 5 includes and excludes the same resource."),
    (block(DNRRuleCondition(excludedResourceTypes: DNRResourceType.allCases)), "Rule with id 5 is not applicable to any resource type."),
    (block(DNRRuleCondition(requestMethods: [.get], excludedRequestMethods: [.get])), "Rule with id 5 includes and excludes the same request method."),
    (block(DNRRuleCondition(initiatorDomains: ["a.example"], domains: ["b.example"])), "Rule with id 5 cannot use deprecated field \"domains\". Use \"initiatorDomains\" instead."),
    (block(DNRRuleCondition(tabIds: [3])), "Rule with id 5 specifies a value for \"tabIds\" or \"excludedTabIds\" key. These are only supported for session-scoped rules."),
    (block(DNRRuleCondition(regexFilter: "(a")), "Rule with id 5 specifies an incorrect value for the \"regexFilter\" key."),
    (block(DNRRuleCondition(regexFilter: "(?=a)b")), "Rule with id 5 specifies an incorrect value for the \"regexFilter\" key."),
    (block(DNRRuleCondition(regexFilter: "[a-z]{1000}")), "Rule with id 5 specified a more complex regex than allowed as part of the \"regexFilter\" key."),
    (DNRRule(id: 5, condition: DNRRuleCondition(urlFilter: "x"), action: DNRRuleAction(type: .allowAllRequests)),
     "Rule with id 5 is an \"allowAllRequests\" rule and must specify the \"resourceTypes\" key. It may only include the \"main_frame\" and \"sub_frame\" resource types."),
    (DNRRule(id: 5, condition: DNRRuleCondition(urlFilter: "x", resourceTypes: [.mainFrame, .script]), action: DNRRuleAction(type: .allowAllRequests)),
     "Rule with id 5 is an \"allowAllRequests\" rule and must specify the \"resourceTypes\" key. It may only include the \"main_frame\" and \"sub_frame\" resource types."),
    (DNRRule(id: 5, condition: DNRRuleCondition(urlFilter: "x"), action: DNRRuleAction(type: .redirect)),
     "Rule with id 5 specifies an incorrect value for the \"action.redirect\" key."),
    (DNRRule(id: 5, condition: DNRRuleCondition(urlFilter: "x"), action: DNRRuleAction(type: .redirect, redirect: DNRRedirect(url: "javascript:alert(1)"))),
     "Rule with id 5 specifies an incorrect value for the \"action.redirect.url\" key. Redirects to javascript urls are not supported."),
    (DNRRule(id: 5, condition: DNRRuleCondition(urlFilter: "x"), action: DNRRuleAction(type: .redirect, redirect: DNRRedirect(extensionPath: "stub.js"))),
     "Rule with id 5 specifies an incorrect value for the \"action.redirect.extensionPath\" key."),
    (DNRRule(id: 5, condition: DNRRuleCondition(urlFilter: "x"), action: DNRRuleAction(type: .redirect, redirect: DNRRedirect(regexSubstitution: "\\1"))),
     "Rule with id 5 can't specify the \"regexSubstitution\" key without specifying the \"regexFilter\" key."),
    (DNRRule(id: 5, condition: DNRRuleCondition(urlFilter: "x"), action: DNRRuleAction(type: .redirect, redirect: DNRRedirect(transform: .init(scheme: "gopher")))),
     "Rule with id 5 specifies an incorrect value for the \"action.redirect.transform.scheme\" key. Allowed values are: [http, https, ftp, chrome-extension]."),
    (DNRRule(id: 5, condition: DNRRuleCondition(urlFilter: "x"), action: DNRRuleAction(type: .modifyHeaders)),
     "Rule with id 5 does not specify a value for \"requestHeaders\" or \"responseHeaders\" key. At least one of these keys must be specified with a non-empty list."),
    (DNRRule(id: 5, condition: DNRRuleCondition(urlFilter: "x"), action: DNRRuleAction(type: .modifyHeaders, requestHeaders: [.init(header: "x-a", operation: .set)])),
     "Rule with id 5 must provide a value for a header to be appended/set."),
    (DNRRule(id: 5, condition: DNRRuleCondition(urlFilter: "x"), action: DNRRuleAction(type: .modifyHeaders, responseHeaders: [.init(header: "x-a", operation: .remove, value: "1")])),
     "Rule with id 5 must not provide a header value for a header to be removed."),
    (DNRRule(id: 5, condition: DNRRuleCondition(urlFilter: "x"), action: DNRRuleAction(type: .modifyHeaders, requestHeaders: [.init(header: "bad header", operation: .remove)])),
     "Rule with id 5 must specify a valid header name to be modified."),
    (DNRRule(id: 5, condition: DNRRuleCondition(urlFilter: "x"), action: DNRRuleAction(type: .modifyHeaders, requestHeaders: [.init(header: "x-custom", operation: .append, value: "1")])),
     "Rule with id 5 must not specify a request header to be appended."),
])
func invalidRuleMessages(rule: DNRRule, message: String) {
    #expect(throws: DNRValidationError.self) { try DNRRuleValidator.validate(rule) }
    do {
        try DNRRuleValidator.validate(rule)
    } catch let error as DNRValidationError {
        #expect(error.message == message)
        #expect(error.ruleID == rule.id)
    } catch {
        Issue.record("unexpected \(error)")
    }
}

@Test func validRulesPass() throws {
    for rule in BuiltInRules.rules { try DNRRuleValidator.validate(rule, source: .staticRuleset(index: 0)) }
    try DNRRuleValidator.validate(block(DNRRuleCondition(tabIds: [3])), source: .session)
    try DNRRuleValidator.validate(block(DNRRuleCondition(regexFilter: "^https?://([a-z0-9-]+\\.)*ads\\.example/[0-9]+\\.js$")))
    #expect(DNRRuleValidator.validate(ruleset: BuiltInRules.rules, source: .staticRuleset(index: 0)).isEmpty)
}

@Test func rulesetLevelErrors() {
    let duplicate = [block(DNRRuleCondition(urlFilter: "a"), id: 1), block(DNRRuleCondition(urlFilter: "b"), id: 1)]
    let errors = DNRRuleValidator.validate(ruleset: duplicate, source: .dynamic)
    #expect(errors.map(\.message) == ["Rule with id 1 does not have a unique ID."])
    #expect(errors.first?.keyPath == "[1].id")
    let tooManySession = (1...(DNRLimits.maxSessionRules + 1)).map { block(DNRRuleCondition(urlFilter: "a"), id: $0) }
    #expect(DNRRuleValidator.validate(ruleset: tooManySession, source: .session).map(\.message) == ["Session rule count exceeded."])
    let tooManyRegex = (1...(DNRLimits.maxRegexRules + 1)).map { block(DNRRuleCondition(regexFilter: "a"), id: $0) }
    #expect(DNRRuleValidator.validate(ruleset: tooManyRegex, source: .dynamic).map(\.message) == ["Dynamic rule count for regex rules exceeded."])
}
