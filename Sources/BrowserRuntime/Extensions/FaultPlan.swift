import WebRuntime

/// Makes `browser.*` calls fail or answer late, as a scenario asks.
public struct FaultPlan: Sendable {
    /// One rule: which calls, and what happens to them.
    public struct Rule: Sendable {
        /// `namespace.method`, e.g. `declarativeNetRequest.updateDynamicRules`.
        public var method: String
        /// Only the Nth call of the method (1-based), if set.
        public var nthCall: Int?
        /// Only calls whose canonical JSON arguments contain this text, if set.
        public var argumentContains: String?
        /// Only calls at or after this virtual time, if set.
        public var from: VirtualTime?
        /// Reject with this message, if set.
        public var error: String?
        /// Settle this much later than usual.
        public var delay: VirtualTime

        /// Makes a rule.
        public init(method: String, nthCall: Int? = nil, argumentContains: String? = nil, from: VirtualTime? = nil, error: String? = nil, delay: VirtualTime = .zero) {
            self.method = method
            self.nthCall = nthCall
            self.argumentContains = argumentContains
            self.from = from
            self.error = error
            self.delay = delay
        }
    }

    /// The rules, checked in order; the first that matches applies.
    public var rules: [Rule]
    private var counts: [String: Int] = [:]

    /// Makes a plan.
    public init(rules: [Rule] = []) { self.rules = rules }

    /// Counts the call and returns the rule that applies to it, if any.
    mutating func match(method: String, arguments: String, now: VirtualTime) -> Rule? {
        let count = (counts[method] ?? 0) + 1
        counts[method] = count
        return rules.first { rule in
            guard rule.method == method else { return false }
            if let nth = rule.nthCall, nth != count { return false }
            if let needle = rule.argumentContains, !arguments.contains(needle) { return false }
            if let from = rule.from, now < from { return false }
            return true
        }
    }
}
