import BlockerCore
import Foundation

/// A request fixture file (fixtures/requests/*.json): optional extra dynamic rules
/// and the requests to decide, each with an optional expected DNR outcome and an
/// optional expected known divergence.
struct RequestFixture: Decodable {
    struct Request: Decodable {
        var name: String
        var url: String
        var type: DNRResourceType
        var method: DNRRequestMethod?
        var initiator: String?
        var frames: [String]?
        var tabId: Int?
        /// Expected DNR outcome: block, allow, none, upgradeScheme, redirect, modifyHeaders.
        var expect: String?
        /// The documented divergence this request demonstrates, if any.
        var divergence: KnownDivergence?
    }

    var description: String?
    var dynamicRules: [DNRRule]?
    var requests: [Request]

    static let keys = KeySchema(
        allowed: ["description", "dynamicRules", "requests"],
        children: [
            "dynamicRules": .list(DNRKeySchema.rule),
            "requests": .list(KeySchema(allowed: ["name", "url", "type", "method", "initiator", "frames", "tabId", "expect", "divergence"])),
        ])

    static let outcomes: Set<String> = ["block", "allow", "none", "upgradeScheme", "redirect", "modifyHeaders"]

    /// Loads and checks a fixture.
    /// - Throws: `InputError` with the file, line and column, and key path.
    static func load(_ path: String) throws -> RequestFixture {
        let data = try FileHandleWriter.read(path)
        let fixture = try JSONInput.decode(RequestFixture.self, from: data, file: path, keys: keys)
        for (index, request) in fixture.requests.enumerated() {
            if let expect = request.expect, !outcomes.contains(expect) {
                throw InputError(file: path, position: "requests[\(index)].expect",
                                 message: "unknown outcome '\(expect)'; use one of \(outcomes.sorted().joined(separator: ", "))")
                    .located(in: [UInt8](data))
            }
        }
        if let rules = fixture.dynamicRules {
            if let error = DNRRuleValidator.validate(ruleset: rules, source: .dynamic).first {
                throw InputError(file: path, position: error.keyPath.map { "dynamicRules\($0)" }, message: error.message)
                    .located(in: [UInt8](data))
            }
        }
        return fixture
    }

    /// The outcome name of a DNR outcome, in the fixture's vocabulary.
    static func outcome(_ outcome: DNROutcome) -> String {
        switch outcome.effect {
        case .none: outcome.headerRules.isEmpty ? "none" : "modifyHeaders"
        case .allow: outcome.headerRules.isEmpty ? "allow" : "modifyHeaders"
        case .block: "block"
        case .upgrade: "upgradeScheme"
        case .redirect: "redirect"
        }
    }
}
