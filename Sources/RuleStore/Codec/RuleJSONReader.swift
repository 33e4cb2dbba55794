/// A byte-level reader for the rule document, replacing a general JSON decoder.
///
/// The document is read on every shared-file update and sync, and `JSONDecoder`
/// alone took most of the 20 ms budget for 5,000 records; reading the one known
/// shape straight from bytes is several times faster. It also reports syntax
/// errors by line and column, and type errors by key path. Input is strict JSON
/// (RFC 8259): no comments, no trailing commas, UTF-8 only.
struct RuleJSONReader {
    let bytes: [UInt8]
    var index = 0
    private var depth = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Reads a whole document.
    /// - Throws: `RuleStoreError.invalidDocument` with a key path or a line and column.
    mutating func readDocument() throws(RuleStoreError) -> WireDocument {
        skipWhitespace()
        guard index < bytes.count else { throw .invalidDocument(file: nil, keyPath: "", reason: "empty file (truncated?)") }
        var format: String?, version: Int64?, rules: [WireRule]?, migrations: [String]?
        try readObject(at: "") { (reader: inout RuleJSONReader, key: String) throws(RuleStoreError) in
            switch key {
            case "format": format = try reader.readString(at: "format")
            case "version": version = try reader.readInteger(at: "version")
            case "rules": rules = try reader.readRules()
            case "migrations": migrations = try reader.readStringArray(at: "migrations")
            default: try reader.skipValue()
            }
        }
        skipWhitespace()
        if index < bytes.count { throw syntax("unexpected text after the document") }
        guard let format else { throw missing("format", at: "") }
        guard let version else { throw missing("version", at: "") }
        guard let rules else { throw missing("rules", at: "") }
        return WireDocument(format: format, version: Int(clamping: version), rules: rules, migrations: migrations)
    }

    // MARK: - Document parts

    private mutating func readRules() throws(RuleStoreError) -> [WireRule] {
        var rules: [WireRule] = []
        rules.reserveCapacity(bytes.count / 100)
        try readArray(at: "rules") { (reader: inout RuleJSONReader, position: Int) throws(RuleStoreError) in
            rules.append(try reader.readRule(at: position))
        }
        return rules
    }

    private mutating func readRule(at position: Int) throws(RuleStoreError) -> WireRule {
        // Key paths are only built when something is wrong: this runs for every record.
        func path() -> String { "rules[\(position)]" }
        var id: String?, hostname: String?, selector: String?, modifiedAt: Int64?, deleted: Bool?
        try readObject(at: path()) { (reader: inout RuleJSONReader, key: String) throws(RuleStoreError) in
            switch key {
            case "id": id = try reader.readString(at: path() + ".id")
            case "hostname": hostname = try reader.readString(at: path() + ".hostname")
            case "selector": selector = try reader.readString(at: path() + ".selector")
            case "modifiedAt": modifiedAt = try reader.readInteger(at: path() + ".modifiedAt")
            case "deleted": deleted = try reader.readBool(at: path() + ".deleted")
            default: try reader.skipValue()
            }
        }
        guard let id else { throw missing("id", at: path()) }
        guard let hostname else { throw missing("hostname", at: path()) }
        guard let selector else { throw missing("selector", at: path()) }
        guard let modifiedAt else { throw missing("modifiedAt", at: path()) }
        guard let deleted else { throw missing("deleted", at: path()) }
        return WireRule(id: id, hostname: hostname, selector: selector, modifiedAt: modifiedAt, deleted: deleted)
    }

    private mutating func readStringArray(at path: String) throws(RuleStoreError) -> [String] {
        var strings: [String] = []
        try readArray(at: path) { (reader: inout RuleJSONReader, position: Int) throws(RuleStoreError) in
            strings.append(try reader.readString(at: "\(path)[\(position)]"))
        }
        return strings
    }

    // MARK: - Containers

    private mutating func readObject(
        at path: @autoclosure () -> String, _ member: (inout RuleJSONReader, String) throws(RuleStoreError) -> Void
    ) throws(RuleStoreError) {
        skipWhitespace()
        guard peek() == UInt8(ascii: "{") else { throw mismatch("an object", at: path()) }
        try enter()
        index += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw syntax("expected a key in quotes") }
            let key = try readRawString()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw syntax("expected ':' after a key") }
            index += 1
            try member(&self, key)
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return
            default: throw syntax("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func readArray(
        at path: @autoclosure () -> String, _ element: (inout RuleJSONReader, Int) throws(RuleStoreError) -> Void
    ) throws(RuleStoreError) {
        skipWhitespace()
        guard peek() == UInt8(ascii: "[") else { throw mismatch("an array", at: path()) }
        try enter()
        index += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return
        }
        var position = 0
        while true {
            try element(&self, position)
            position += 1
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return
            default: throw syntax("expected ',' or ']' in an array")
            }
        }
    }

    /// Guards against stack exhaustion on hostile nesting inside unknown keys.
    private mutating func enter() throws(RuleStoreError) {
        depth += 1
        if depth > 64 { throw syntax("nested too deeply") }
    }

    private mutating func skipValue() throws(RuleStoreError) {
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: "{"): try readObject(at: "") { (reader: inout RuleJSONReader, _: String) throws(RuleStoreError) in try reader.skipValue() }
        case UInt8(ascii: "["): try readArray(at: "") { (reader: inout RuleJSONReader, _: Int) throws(RuleStoreError) in try reader.skipValue() }
        case UInt8(ascii: "\""): _ = try readRawString()
        case UInt8(ascii: "t"), UInt8(ascii: "f"): _ = try readBool(at: "")
        case UInt8(ascii: "n"): try expectLiteral("null")
        case nil: throw syntax("unexpected end (truncated?)")
        default: try skipNumber()
        }
    }
}
