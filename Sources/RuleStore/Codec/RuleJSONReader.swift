import StrictJSON

/// Reads the rule document's one known shape straight from a `JSONScanner`, replacing
/// a general JSON decoder.
///
/// The document is read on every shared-file update and sync, and `JSONDecoder`
/// alone took most of the 20 ms budget for 5,000 records; reading the one known
/// shape straight from bytes is several times faster. The scanner does the JSON
/// (strict RFC 8259: no comments, no trailing commas, no duplicate keys, UTF-8 only);
/// this type only maps keys to fields and its errors to `RuleStoreError`.
struct RuleJSONReader {
    private var scanner: JSONScanner

    /// A reader for `bytes`. Nesting is limited to 64 levels: the document needs three,
    /// and unknown keys (skipped) should not cost a deep stack.
    init(_ bytes: [UInt8]) { scanner = JSONScanner(bytes, maxDepth: 64) }

    /// Reads a whole document.
    /// - Throws: `RuleStoreError.invalidDocument` with a key path or a line and column.
    mutating func readDocument() throws(RuleStoreError) -> WireDocument {
        guard !scanner.isAtEnd else { throw .invalidDocument(file: nil, keyPath: "", reason: "empty file (truncated?)") }
        do {
            return try scanner.readDocument(Self.readWire)
        } catch {
            throw Self.storeError(error)
        }
    }

    /// A syntax error keeps the form `not valid json at line 3, column 17: <problem>` with
    /// no key path; a value of the wrong shape is named by its key path.
    static func storeError(_ error: JSONInputError) -> RuleStoreError {
        switch error.kind {
        case .syntax:
            let position = error.line.map { line in "at line \(line), column \(error.column ?? 1)" } ?? ""
            return .invalidDocument(file: nil, keyPath: "", reason: "not valid json \(position): \(error.message)")
        case .shape:
            return .invalidDocument(file: nil, keyPath: error.path, reason: error.message)
        }
    }

    // MARK: - Document parts

    private static func readWire(_ scanner: inout JSONScanner) throws(JSONInputError) -> WireDocument {
        let start = scanner.index
        var format: String?, version: Int64?, rules: [WireRule]?, migrations: [String]?
        try scanner.readObject(at: .root) { (scanner: inout JSONScanner, key: String) throws(JSONInputError) in
            switch key {
            case "format": format = try scanner.readString(at: ["format"])
            case "version": version = try scanner.readInteger(at: ["version"])
            case "rules": rules = try readRules(&scanner)
            case "migrations": migrations = try readStringArray(&scanner, at: ["migrations"])
            default: try scanner.skipValue(at: [.key(key)])
            }
        }
        guard let format else { throw missing("format", at: .root, start, scanner) }
        guard let version else { throw missing("version", at: .root, start, scanner) }
        guard let rules else { throw missing("rules", at: .root, start, scanner) }
        return WireDocument(format: format, version: Int(clamping: version), rules: rules, migrations: migrations)
    }

    private static func readRules(_ scanner: inout JSONScanner) throws(JSONInputError) -> [WireRule] {
        var rules: [WireRule] = []
        rules.reserveCapacity(scanner.bytes.count / 100)
        try scanner.readArray(at: ["rules"]) { (scanner: inout JSONScanner, position: Int) throws(JSONInputError) in
            rules.append(try readRule(&scanner, at: position))
        }
        return rules
    }

    private static func readRule(_ scanner: inout JSONScanner, at position: Int) throws(JSONInputError) -> WireRule {
        // Key paths are only built when something is wrong: this runs for every record.
        func path() -> JSONPath { ["rules", .index(position)] }
        scanner.skipWhitespace()
        let start = scanner.index
        var id: String?, hostname: String?, selector: String?, modifiedAt: Int64?, deleted: Bool?
        try scanner.readObject(at: path()) { (scanner: inout JSONScanner, key: String) throws(JSONInputError) in
            switch key {
            case "id": id = try scanner.readString(at: path().appending(key: "id"))
            case "hostname": hostname = try scanner.readString(at: path().appending(key: "hostname"))
            case "selector": selector = try scanner.readString(at: path().appending(key: "selector"))
            case "modifiedAt": modifiedAt = try scanner.readInteger(at: path().appending(key: "modifiedAt"))
            case "deleted": deleted = try scanner.readBool(at: path().appending(key: "deleted"))
            default: try scanner.skipValue(at: path().appending(key: key))
            }
        }
        guard let id else { throw missing("id", at: path(), start, scanner) }
        guard let hostname else { throw missing("hostname", at: path(), start, scanner) }
        guard let selector else { throw missing("selector", at: path(), start, scanner) }
        guard let modifiedAt else { throw missing("modifiedAt", at: path(), start, scanner) }
        guard let deleted else { throw missing("deleted", at: path(), start, scanner) }
        return WireRule(id: id, hostname: hostname, selector: selector, modifiedAt: modifiedAt, deleted: deleted)
    }

    private static func readStringArray(_ scanner: inout JSONScanner, at path: JSONPath) throws(JSONInputError) -> [String] {
        var strings: [String] = []
        try scanner.readArray(at: path) { (scanner: inout JSONScanner, position: Int) throws(JSONInputError) in
            strings.append(try scanner.readString(at: path.appending(index: position)))
        }
        return strings
    }

    /// `missing key 'id'` at the object (starting at `offset`) that lacks it.
    private static func missing(_ key: String, at path: JSONPath, _ offset: Int, _ scanner: JSONScanner) -> JSONInputError {
        scanner.error("missing key '\(key)'", at: path, offset: offset)
    }
}
