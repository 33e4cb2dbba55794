/// One invalid DNR rule (or ruleset-level limit), with Chromium's own message.
public struct DNRValidationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The rule id, when the error is about one rule.
    public let ruleID: Int?
    /// Index of the rule in its list, when known (for key paths such as `[3].condition`).
    public let ruleIndex: Int?
    /// The offending key (`urlFilter`, `action.redirect.url`), when there is one.
    public let key: String?
    /// Chromium's message text, with the id and key filled in.
    public let message: String

    /// Creates a validation error.
    public init(ruleID: Int?, ruleIndex: Int? = nil, key: String?, message: String) {
        self.ruleID = ruleID
        self.ruleIndex = ruleIndex
        self.key = key
        self.message = message
    }

    /// The message alone, as Chromium reports it.
    public var description: String { message }

    /// JSON key path of the error inside a rules file: `[3].condition.urlFilter`.
    public var keyPath: String? {
        guard let ruleIndex else { return nil }
        guard let key else { return "[\(ruleIndex)]" }
        let section = key.hasPrefix("action.") || key == "type" ? "" : (key == "id" || key == "priority" ? "" : "condition.")
        return "[\(ruleIndex)].\(section)\(key)"
    }
}
