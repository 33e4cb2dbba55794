import Foundation

extension RuleCodec {
    /// Parses and validates a rule document.
    ///
    /// Checks every record (`RuleValidator`), rejects duplicate ids and documents over
    /// `sizeLimit`. Unknown keys are ignored so a newer writer's extra fields do not
    /// break this reader; a newer `version` is refused instead of being rewritten.
    /// - Parameter file: named in errors when given.
    /// - Throws: `RuleStoreError.invalidDocument` naming the key path, or `.collectionTooLarge`.
    public static func decode(_ data: Data, file: String? = nil) throws(RuleStoreError) -> RuleDocument {
        do {
            return try decodeUnlocated(data)
        } catch {
            throw file.map { error.located(in: $0) } ?? error
        }
    }

    private static func decodeUnlocated(_ data: Data) throws(RuleStoreError) -> RuleDocument {
        guard data.count <= sizeLimit else {
            throw .collectionTooLarge(file: nil, bytes: data.count, limit: sizeLimit)
        }
        let wire: WireDocument
        do {
            wire = try JSONDecoder().decode(WireDocument.self, from: data)
        } catch let error as DecodingError {
            throw invalid(from: error, data: data)
        } catch {
            throw .invalidDocument(file: nil, keyPath: "", reason: "not valid json")
        }
        guard wire.format == formatName else {
            throw .invalidDocument(
                file: nil, keyPath: "format",
                reason: "expected '\(formatName)', found '\(wire.format)'")
        }
        guard wire.version == version else {
            throw .invalidDocument(
                file: nil, keyPath: "version",
                reason: "unsupported version \(wire.version); this build reads version \(version)")
        }
        var validator = RuleValidator()
        var byID: [String: PersonalRule] = [:]
        var firstIndex: [String: Int] = [:]
        byID.reserveCapacity(wire.rules.count)
        for (index, wireRule) in wire.rules.enumerated() {
            let rule = wireRule.rule
            try validator.check(rule, at: "rules[\(index)]")
            if let earlier = firstIndex.updateValue(index, forKey: rule.id) {
                throw .invalidDocument(
                    file: nil, keyPath: "rules[\(index)].id",
                    reason: "duplicate id '\(rule.id)' (first at rules[\(earlier)])")
            }
            byID[rule.id] = rule
        }
        for (index, name) in (wire.migrations ?? []).enumerated() where name.isEmpty {
            throw .invalidDocument(file: nil, keyPath: "migrations[\(index)]", reason: "empty migration name")
        }
        return RuleDocument(collection: RuleCollection(validatedByID: byID), migrations: wire.migrations ?? [])
    }

    private static func invalid(from error: DecodingError, data: Data) -> RuleStoreError {
        switch error {
        case .keyNotFound(let key, let context):
            return .invalidDocument(
                file: nil, keyPath: keyPath(context.codingPath), reason: "missing key '\(key.stringValue)'")
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return .invalidDocument(
                file: nil, keyPath: keyPath(context.codingPath), reason: "expected \(describe(type))")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return .invalidDocument(file: nil, keyPath: "", reason: syntaxReason(context, data: data))
            }
            return .invalidDocument(
                file: nil, keyPath: keyPath(context.codingPath), reason: context.debugDescription.lowercased())
        @unknown default:
            return .invalidDocument(file: nil, keyPath: "", reason: "not a valid rule document")
        }
    }

    /// `rules[3].hostname` from a decoder coding path.
    static func keyPath(_ path: [any CodingKey]) -> String {
        var out = ""
        for key in path {
            if let index = key.intValue {
                out += "[\(index)]"
            } else {
                out += out.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return out
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is Int64.Type, is Int.Type: return "an integer"
        case is [WireRule].Type, is [String].Type: return "an array"
        default: return "a different type"
        }
    }

    private static func syntaxReason(_ context: DecodingError.Context, data: Data) -> String {
        if data.isEmpty { return "empty file (truncated?)" }
        // Foundation puts the parser's position into the underlying error's text.
        let detail = (context.underlyingError.map { "\($0)" } ?? context.debugDescription)
        if let range = detail.range(of: "line \\d+, column \\d+", options: .regularExpression) {
            return "not valid json (at \(detail[range]))"
        }
        return "not valid json"
    }
}

/// The document as it appears on the wire, before validation.
struct WireDocument: Decodable {
    var format: String
    var version: Int
    var rules: [WireRule]
    var migrations: [String]?
}

/// A record as it appears on the wire, before validation.
struct WireRule: Decodable {
    var id: String
    var hostname: String
    var selector: String
    var modifiedAt: Int64
    var deleted: Bool

    var rule: PersonalRule {
        PersonalRule(id: id, hostname: hostname, selector: selector, modifiedAt: modifiedAt, deleted: deleted)
    }
}

extension RuleCollection {
    /// A collection from records already checked to have distinct ids.
    init(validatedByID: [String: PersonalRule]) {
        self.init()
        recordsByID = validatedByID
    }
}
