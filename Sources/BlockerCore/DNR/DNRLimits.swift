/// Chromium's DNR limits (extensions/common/api/declarative_net_request/constants.h
/// and the IDL's exposed constants).
public enum DNRLimits {
    /// GUARANTEED_MINIMUM_STATIC_RULES.
    public static let guaranteedMinimumStaticRules = 30_000
    /// MAX_NUMBER_OF_DYNAMIC_RULES.
    public static let maxDynamicRules = 30_000
    /// MAX_NUMBER_OF_UNSAFE_DYNAMIC_RULES (and the older combined dynamic+session cap).
    public static let maxUnsafeDynamicRules = 5_000
    /// MAX_NUMBER_OF_SESSION_RULES.
    public static let maxSessionRules = 5_000
    /// MAX_NUMBER_OF_REGEX_RULES.
    public static let maxRegexRules = 1_000
    /// MAX_NUMBER_OF_STATIC_RULESETS.
    public static let maxStaticRulesets = 100
    /// MAX_NUMBER_OF_ENABLED_STATIC_RULESETS.
    public static let maxEnabledStaticRulesets = 50
    /// RE2 memory cap for regexFilter, in bytes (utils.cc, kRegexMaxMemKb = 2).
    /// MAX_NUMBER_OF_DISABLED_STATIC_RULES: static rules updateStaticRules may turn off.
    public static let maxDisabledStaticRules = 5_000
    public static let regexMaxMemoryBytes = 2 * 1024
}
