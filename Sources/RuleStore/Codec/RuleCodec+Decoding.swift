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
        try decode(data, file: file, limit: sizeLimit)
    }

    /// `decode(_:file:)` with a different size limit; the benchmark lifts it to time oversized inputs.
    static func decode(_ data: Data, file: String?, limit: Int) throws(RuleStoreError) -> RuleDocument {
        do {
            return try decodeUnlocated(data, limit: limit)
        } catch {
            throw file.map { error.located(in: $0) } ?? error
        }
    }

    private static func decodeUnlocated(_ data: Data, limit: Int) throws(RuleStoreError) -> RuleDocument {
        guard data.count <= limit else {
            throw .collectionTooLarge(file: nil, bytes: data.count, limit: limit)
        }
        var reader = RuleJSONReader(Array(data))
        let wire = try reader.readDocument()
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
        byID.reserveCapacity(wire.rules.count)
        for (index, wireRule) in wire.rules.enumerated() {
            let rule = wireRule.rule
            try validator.check(rule, at: "rules[\(index)]")
            if byID.updateValue(rule, forKey: rule.id) != nil {
                let earlier = wire.rules.firstIndex { $0.id == rule.id } ?? index
                throw .invalidDocument(
                    file: nil, keyPath: "rules[\(index)].id",
                    reason: "duplicate id '\(rule.id)' (first at rules[\(earlier)])")
            }
        }
        for (index, name) in (wire.migrations ?? []).enumerated() where name.isEmpty {
            throw .invalidDocument(file: nil, keyPath: "migrations[\(index)]", reason: "empty migration name")
        }
        return RuleDocument(collection: RuleCollection(validatedByID: byID), migrations: wire.migrations ?? [])
    }
}

/// The document as it appears on the wire, before validation.
struct WireDocument {
    var format: String
    var version: Int
    var rules: [WireRule]
    var migrations: [String]?
}

/// A record as it appears on the wire, before validation.
struct WireRule {
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
