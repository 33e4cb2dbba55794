import Dispatch

/// The decision benchmark: generated requests against the 14 built-in rules plus
/// generated dynamic source-block rules, decided by DNR semantics and by the
/// translated Content Blocker rules. Deterministic: the same seed gives the same workload.
public struct DecisionBenchmark: Sendable {
    /// Figures from one benchmark.
    public struct Result: Sendable, Codable {
        /// Median DNR decisions per second (requests already parsed, as a browser hands them over).
        public let dnrDecisionsPerSecond: Double
        /// Median DNR decisions per second including URL parsing of url, initiator and frame.
        public let dnrDecisionsWithParsingPerSecond: Double
        /// Median Content Blocker decisions per second.
        public let contentBlockerDecisionsPerSecond: Double
        /// Requests per run.
        public let requests: Int
        /// Static and dynamic rule counts.
        public let staticRules: Int
        /// Dynamic rules.
        public let dynamicRules: Int
        /// Runs the medians are taken over.
        public let runs: Int
        /// Requests blocked by DNR in one run.
        public let dnrBlocked: Int
        /// Requests blocked by the Content Blocker rules in one run.
        public let contentBlockerBlocked: Int
    }

    /// Number of generated requests.
    public let requestCount: Int
    /// Number of generated dynamic source-block rules.
    public let dynamicRuleCount: Int

    /// Creates a benchmark of the given size (the figures by default).
    public init(requestCount: Int = 100_000, dynamicRuleCount: Int = 1_000) {
        self.requestCount = requestCount
        self.dynamicRuleCount = dynamicRuleCount
    }

    /// The generated source-block rules: `||host^`, every type but main_frame, as ADV installs them.
    public func dynamicRules() -> [DNRRule] {
        (0..<dynamicRuleCount).map { index in
            DNRRule(id: index + 1, priority: 1,
                    condition: DNRRuleCondition(urlFilter: "||\(Self.sourceHost(index))^", resourceTypes: BuiltInRules.resourceTypes),
                    action: DNRRuleAction(type: .block))
        }
    }

    static func sourceHost(_ index: Int) -> String { "ads\(index).source\(index % 97).example" }

    /// The generated requests as (url, type, initiator, top document) strings.
    public func requestStrings() -> [(url: String, type: DNRResourceType, initiator: String, frame: String)] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let types: [DNRResourceType] = [.script, .image, .image, .stylesheet, .xmlhttprequest, .subFrame, .font, .media, .ping, .other]
        return (0..<requestCount).map { _ in
            let site = "www.site\(next(300)).example"
            let roll = next(100)
            let host: String
            if roll < 10 {
                host = "cdn\(next(5)).\(AdvertisingDomains.all[next(AdvertisingDomains.all.count)])"
            } else if roll < 20 {
                host = (next(2) == 0 ? "" : "img.") + Self.sourceHost(next(dynamicRuleCount))
            } else {
                host = "static\(next(2000)).site\(next(300)).example"
            }
            let type = next(50) == 0 ? DNRResourceType.mainFrame : types[next(types.count)]
            let url = "https://\(host)/assets/\(next(1000))/file\(next(100)).js?v=\(next(10_000))"
            return (url, type, "https://\(site)", "https://\(site)/article/\(next(500))")
        }
    }

    /// Runs the benchmark `runs` times and reports medians.
    /// - Throws: `InputError` if the translated rules fall outside WebKit's regex subset (a translator bug).
    public func run(runs: Int = 5) throws -> Result {
        let rulesets = [BuiltInRules.ruleset, DNRRuleset(id: "_dynamic", source: .dynamic, rules: dynamicRules())]
        let matcher = DNRMatcher(rulesets: rulesets)
        let evaluator = try ContentBlockerEvaluator(rules: ContentBlockerTranslator.translate(rulesets).rules)
        let strings = requestStrings()
        let requests = try strings.map { try DNRRequest(url: $0.url, type: $0.type, initiator: $0.initiator, frames: [$0.frame]) }
        let cbRequests = requests.map(ContentBlockerRequest.init)
        var dnrRates: [Double] = []
        var parsingRates: [Double] = []
        var cbRates: [Double] = []
        var dnrBlocked = 0
        var cbBlocked = 0
        for _ in 0..<max(runs, 1) {
            var blocked = 0
            var seconds = Self.time { for request in requests where matcher.decide(request).isBlocked { blocked += 1 } }
            dnrRates.append(Double(requests.count) / seconds)
            dnrBlocked = blocked
            var parsedBlocked = 0
            seconds = try Self.time {
                for item in strings {
                    let request = try DNRRequest(url: item.url, type: item.type, initiator: item.initiator, frames: [item.frame])
                    if matcher.decide(request).isBlocked { parsedBlocked += 1 }
                }
            }
            parsingRates.append(Double(strings.count) / seconds)
            blocked = 0
            seconds = Self.time { for request in cbRequests where evaluator.decide(request).isBlocked { blocked += 1 } }
            cbRates.append(Double(cbRequests.count) / seconds)
            cbBlocked = blocked
        }
        return Result(
            dnrDecisionsPerSecond: Self.median(dnrRates), dnrDecisionsWithParsingPerSecond: Self.median(parsingRates),
            contentBlockerDecisionsPerSecond: Self.median(cbRates), requests: requests.count,
            staticRules: BuiltInRules.rules.count, dynamicRules: dynamicRuleCount, runs: max(runs, 1),
            dnrBlocked: dnrBlocked, contentBlockerBlocked: cbBlocked)
    }

    static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return max(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, 1e-9)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}
