/// The result of translating DNR rulesets to Content Blocker rules.
public struct ContentBlockerTranslation: Sendable {
    /// The rules in evaluation order.
    public let rules: [ContentBlockerRule]
    /// For each rule, the DNR rule it came from.
    public let origins: [DNRMatchedRule]
    /// For each rule, that DNR rule itself (its redirect and header changes).
    public let sources: [DNRRule]
    /// Indices of the rules that are exclusions: `ignore-following-rules` rules WebKit makes from
    /// excluded request domains, methods or initiators (``KnownDivergence`` explanations use them).
    public let exclusions: Set<Int>
    /// DNR rules WebKit would refuse, or whose translation WebKit's url-filter parser refuses.
    public let errors: [String]
}
