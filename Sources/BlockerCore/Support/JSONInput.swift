import Foundation
import StrictJSON

/// Decodes JSON input files into Codable models, turning every failure into an
/// `InputError` with the file, the line and column, and the JSON key path, and refusing
/// keys the model does not know (typos must not pass silently).
///
/// The text is first read strictly with StrictJSON, so what Foundation on Linux would let
/// through (`[1,]`, a repeated key of which one silently wins, a byte-order mark, invalid
/// UTF-8, `NaN`) is refused with its position; only then does `JSONDecoder` build the model.
public enum JSONInput {
    /// The position named for the whole document.
    static let topLevel = "top level"

    /// Decodes `T` from `data`, refusing keys `keys` does not allow.
    /// - Throws: `InputError` naming `file`, the line and column, and the key path.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data, file: String, keys: KeySchema? = nil) throws -> T {
        let bytes = [UInt8](data)
        _ = try check(bytes, file: file, keys: keys)
        return try decodeChecked(T.self, from: data, bytes: bytes, file: file)
    }

    /// Reads `bytes` strictly and checks their keys against `keys`.
    /// - Returns: The kind of the top-level value.
    /// - Throws: `InputError` at the first syntax error, else at the first unknown key
    ///   (in document order).
    static func check(_ bytes: [UInt8], file: String, keys: KeySchema?) throws(InputError) -> JSONScanner.ValueKind? {
        var scanner = JSONScanner(bytes)
        var unknownKey: InputError?
        let kind: JSONScanner.ValueKind?
        do {
            kind = try scanner.readDocument { (scanner: inout JSONScanner) throws(JSONInputError) in
                let kind = scanner.peekKind()
                if let keys {
                    try keys.scan(&scanner, at: .root, file: file, unknownKey: &unknownKey)
                } else {
                    try scanner.skipValue()
                }
                return kind
            }
        } catch {
            throw InputError(error, file: file)
        }
        if let unknownKey { throw unknownKey }
        return kind
    }

    /// Decodes `T` from text `check` accepted.
    /// - Throws: `InputError` for a `DecodingError`, located by its coding path.
    static func decodeChecked<T: Decodable>(_ type: T.Type, from data: Data, bytes: [UInt8], file: String) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw describe(error, file: file).located(in: bytes)
        }
    }

    /// Renders a coding path as `rules[3].condition.urlFilter` (`top level` when empty).
    static func path(_ codingPath: [any CodingKey]) -> String {
        let path = JSONPath(codingPath: codingPath)
        return path.isEmpty ? topLevel : path.description
    }

    private static func describe(_ error: DecodingError, file: String) -> InputError {
        switch error {
        case .typeMismatch(let type, let context):
            return InputError(file: file, position: path(context.codingPath), message: "expected \(typeName(type))")
        case .valueNotFound(let type, let context):
            return InputError(file: file, position: path(context.codingPath), message: "expected \(typeName(type)), found null")
        case .keyNotFound(let key, let context):
            return InputError(file: file, position: path(context.codingPath + [key]), message: "missing required key '\(key.stringValue)'")
        case .dataCorrupted(let context):
            // Enum raw values land here: name the accepted spellings.
            let text = context.debugDescription
            if let range = text.range(of: "from invalid String value ") {
                let value = String(text[range.upperBound...])
                let accepted = Self.enumValues.first { text.contains($0.key) }?.value
                let list = accepted.map { "; expected one of \($0.joined(separator: ", "))" } ?? ""
                return InputError(file: file, position: path(context.codingPath), message: "unknown value '\(value)'\(list)")
            }
            return InputError(file: file, position: path(context.codingPath), message: lowercaseFirst(text))
        @unknown default:
            return InputError(file: file, message: "cannot decode: \(error)")
        }
    }

    /// Accepted spellings of the string enums in rule and fixture files, for error messages.
    static let enumValues: [String: [String]] = [
        "DNRResourceType": DNRResourceType.allCases.map(\.rawValue),
        "DNRRequestMethod": DNRRequestMethod.allCases.map(\.rawValue),
        "DNRDomainType": ["firstParty", "thirdParty"],
        "Kind": DNRRuleAction.Kind.allCases.map(\.rawValue),
        "Operation": ["append", "set", "remove"],
        "KnownDivergence": KnownDivergence.allCases.map(\.rawValue),
        "ContentBlockerResourceType": ContentBlockerResourceType.allCases.map(\.rawValue),
    ]

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type: "an integer"
        case is Bool.Type: "true or false"
        case is Double.Type: "a number"
        default:
            String(describing: type).hasPrefix("Array") ? "a list" : "an object"
        }
    }

    private static func lowercaseFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.lowercased() + text.dropFirst()
    }
}
