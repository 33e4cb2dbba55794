/// A rule that decided a request: which ruleset, which id.
public struct DNRMatchedRule: Sendable, Hashable, CustomStringConvertible {
    /// The ruleset id (`_dynamic`, `_session` or a manifest ruleset id).
    public let rulesetID: String
    /// The rule id.
    public let ruleID: Int
    /// The rule's action type.
    public let action: DNRRuleAction.Kind
    /// The rule's priority.
    public let priority: Int

    /// Creates a matched-rule record.
    public init(rulesetID: String, ruleID: Int, action: DNRRuleAction.Kind, priority: Int) {
        self.rulesetID = rulesetID
        self.ruleID = ruleID
        self.action = action
        self.priority = priority
    }

    /// `adv_builtin#3 (block, priority 1)`
    public var description: String { "\(rulesetID)#\(ruleID) (\(action.rawValue), priority \(priority))" }
}
