import RuleAssistance

/// The Swift side of the normalization the two implementations must share.
enum RuleAssistanceNormalization {
    static func swift(_ selector: String) -> String { SelectorText.normalized(selector) }
}
