/// A DNR `Rule`: id, optional priority, condition and action.
public struct DNRRule: Codable, Sendable, Hashable {
    /// Unique within its ruleset, at least 1.
    public var id: Int
    /// At least 1 when given; defaults to 1.
    public var priority: Int?
    /// When the rule applies.
    public var condition: DNRRuleCondition
    /// What it does.
    public var action: DNRRuleAction

    /// Creates a rule.
    public init(id: Int, priority: Int? = nil, condition: DNRRuleCondition, action: DNRRuleAction) {
        self.id = id
        self.priority = priority
        self.condition = condition
        self.action = action
    }

    /// The priority the matcher uses (IDL: "Defaults to 1").
    public var effectivePriority: Int { priority ?? 1 }
}
