/// What WebKit does with a load: the actions left after ignore-previous-rules.
public struct ContentBlockerDecision: Sendable, Hashable, CustomStringConvertible {
    /// Indices (into the evaluator's rules) of the actions that apply, in order.
    public let ruleIndices: [Int]
    /// Their action types.
    public let actions: [ContentBlockerAction.Kind]

    /// True when a block action applies.
    public var isBlocked: Bool { actions.contains(.block) }
    /// True when a make-https action applies.
    public var makesHTTPS: Bool { actions.contains(.makeHTTPS) }

    /// `block (rule 3)` or `no action`.
    public var description: String {
        if actions.isEmpty { return "no action" }
        return zip(actions, ruleIndices).map { "\($0.rawValue) (rule \($1))" }.joined(separator: ", ")
    }
}
