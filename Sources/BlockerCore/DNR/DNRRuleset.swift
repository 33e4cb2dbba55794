import Foundation

/// One DNR ruleset as the matcher sees it: its id, where it comes from, and its rules.
public struct DNRRuleset: Sendable, Hashable {
    /// Where a ruleset comes from; decides the tie-break order and the count limits.
    public enum Source: Sendable, Hashable {
        /// A manifest `rule_resources` entry; `index` is its position (0-based) in the manifest.
        case staticRuleset(index: Int)
        /// `updateDynamicRules`.
        case dynamic
        /// `updateSessionRules`.
        case session

        /// Chromium's RulesetID ordering used to break ties between equal priorities
        /// (request_action.cc, operator<): static rulesets from 1 up, dynamic 0, session -1.
        var tieBreakID: Int {
            switch self {
            case .staticRuleset(let index): index + 1
            case .dynamic: 0
            case .session: -1
            }
        }
    }

    /// The ruleset id (`_dynamic` and `_session` for the API-managed sets, as in Chromium).
    public var id: String
    /// Where it comes from.
    public var source: Source
    /// The rules, in file order.
    public var rules: [DNRRule]

    /// Creates a ruleset.
    public init(id: String, source: Source, rules: [DNRRule]) {
        self.id = id
        self.source = source
        self.rules = rules
    }

    /// What a reader does with keys the DNR schema does not have.
    public enum UnknownKeys: Sendable {
        /// Refuse them (adv-check, which lints rules before they ship; Chrome's argument checks).
        case reject
        /// Ignore them, as both browsers do for static rulesets (Chromium parses rule files with
        /// its generated IDL types, which skip unknown properties; WebKit's validateDictionary
        /// checks only the keys it knows) and WebKit does for dynamic and session rules.
        case ignore
    }

    /// Decodes a DNR rule file (a JSON list of rules).
    /// - Throws: `InputError` naming `file`, the line and column, and the key path of the
    ///   first problem; the text must be strict JSON (no trailing commas or repeated keys).
    public static func decodeRules(from data: Data, file: String, unknownKeys: UnknownKeys = .reject) throws -> [DNRRule] {
        let bytes = [UInt8](data)
        guard try JSONInput.check(bytes, file: file, keys: unknownKeys == .reject ? .list(DNRKeySchema.rule) : nil) == .array else {
            // Chromium's own message (constants.cc kErrorListNotPassed).
            throw InputError(file: file, position: JSONInput.topLevel, message: "Rules file must contain a list.").located(in: bytes)
        }
        return try JSONInput.decodeChecked([DNRRule].self, from: data, bytes: bytes, file: file)
    }

    /// Encodes rules as pretty, key-sorted DNR JSON (stable bytes for review and for the committed file).
    /// - Throws: only if encoding fails, which the model's types rule out.
    public static func encodeRules(_ rules: [DNRRule]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(rules)
        data.append(UInt8(ascii: "\n"))
        return data
    }
}
