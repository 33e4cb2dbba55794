/// Chromium's DNR error strings, from
/// extensions/browser/api/declarative_net_request/constants.cc (`*` placeholders
/// filled in order, as ErrorUtils::FormatErrorMessage does).
enum DNRErrorMessages {
    static let invalidRuleKey = "Rule with id * has an invalid value for * key. This should be greater than or equal to *."
    static let emptyList = "Rule with id * cannot have an empty list as the value for * key."
    static let emptyKey = "Rule with id * cannot have an empty value for * key."
    static let nonAscii = "Rule with id * cannot have non-ascii characters as part of \"*\" key."
    static let invalidKey = "Rule with id * specifies an incorrect value for the \"*\" key."
    static let invalidRedirectURL = "Rule with id * does not provide a valid URL for * key."
    static let duplicateIDs = "Rule with id * does not have a unique ID."
    static let resourceTypeDuplicated = "Rule with id * includes and excludes the same resource."
    static let requestMethodDuplicated = "Rule with id * includes and excludes the same request method."
    static let noApplicableResourceTypes = "Rule with id * is not applicable to any resource type."
    static let invalidTransformScheme = "Rule with id * specifies an incorrect value for the \"*\" key. Allowed values are: [*]."
    static let queryAndTransformBoth = "Rule with id * cannot specify both \"*\" and \"*\" keys."
    static let domainsAndInitiatorDomains = "Rule with id * cannot use deprecated field \"*\". Use \"*\" instead."
    static let javascriptRedirect = "Rule with id * specifies an incorrect value for the \"*\" key. Redirects to javascript urls are not supported."
    static let multipleFilters = "Rule with id * can only specify one of \"*\" or \"*\" keys."
    static let regexSubstitutionWithoutFilter = "Rule with id * can't specify the \"*\" key without specifying the \"*\" key."
    static let invalidAllowAllRequestsResourceType = "Rule with id * is an \"allowAllRequests\" rule and must specify the \"resourceTypes\" key. It may only include the \"main_frame\" and \"sub_frame\" resource types."
    static let regexTooLarge = "Rule with id * specified a more complex regex than allowed as part of the \"*\" key."
    static let noHeaderListsSpecified = "Rule with id * does not specify a value for \"*\" or \"*\" key. At least one of these keys must be specified with a non-empty list."
    static let invalidHeaderName = "Rule with id * must specify a valid header name to be modified."
    static let invalidHeaderValue = "Rule with id * specifies an invalid header value."
    static let noHeaderValueSpecified = "Rule with id * must provide a value for a header to be appended/set."
    static let headerValuePresent = "Rule with id * must not provide a header value for a header to be removed."
    static let cannotAppendRequestHeader = "Rule with id * must not specify a request header to be appended."
    static let tabIdsOnNonSessionRule = "Rule with id * specifies a value for \"*\" or \"*\" key. These are only supported for session-scoped rules."
    static let tabIdDuplicated = "Rule with id * includes and excludes the same tab ID."
    static let ruleCountExceeded = "Rule count exceeded. Some rules were ignored."
    static let regexRuleCountExceeded = "Regular expression rule count exceeded. Some rules were ignored."
    static let dynamicRuleCountExceeded = "Dynamic rule count exceeded."
    static let dynamicRegexRuleCountExceeded = "Dynamic rule count for regex rules exceeded."
    static let sessionRuleCountExceeded = "Session rule count exceeded."
    static let sessionRegexRuleCountExceeded = "Session rule count for regex rules exceeded."

    /// Fills `*` placeholders in order.
    static func format(_ template: String, _ values: [String]) -> String {
        var result = ""
        var remaining = values[...]
        for character in template {
            if character == "*", let value = remaining.popFirst() {
                result += value
            } else {
                result.append(character)
            }
        }
        return result
    }
}
