/// The result of translating DNR rulesets to Content Blocker rules.
public struct ContentBlockerTranslation: Sendable {
    /// The rules in evaluation order.
    public let rules: [ContentBlockerRule]
    /// For each rule, the DNR rule it came from.
    public let origins: [DNRMatchedRule]
    /// DNR rules WebKit would refuse, or whose translation WebKit's url-filter parser refuses.
    public let errors: [String]
}
