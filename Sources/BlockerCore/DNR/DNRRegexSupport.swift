/// `declarativeNetRequest.isRegexSupported`: whether a regular expression can be used as a
/// `regexFilter` (Chromium's declarative_net_request_api.cc answers with RE2's verdict).
public enum DNRRegexSupport {
    /// The answer: supported, or the reason it is not (`syntaxError`, `memoryLimitExceeded`).
    public struct Answer: Equatable, Sendable {
        /// True when the regex can be used.
        public let isSupported: Bool
        /// `syntaxError` or `memoryLimitExceeded` when not supported.
        public let reason: String?
    }

    /// Checks `regex` as a DNR regexFilter.
    public static func check(_ regex: String) -> Answer {
        switch DNRRegexFilter.check(regex) {
        case .valid: return Answer(isSupported: true, reason: nil)
        case .invalid: return Answer(isSupported: false, reason: "syntaxError")
        case .tooLarge: return Answer(isSupported: false, reason: "memoryLimitExceeded")
        }
    }
}
