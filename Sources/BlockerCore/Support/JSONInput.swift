import Foundation

/// Decodes JSON input files into Codable models, turning every failure into an
/// `InputError` with the file and the JSON key path (or line for syntax errors),
/// and refusing keys the model does not know (typos must not pass silently).
public enum JSONInput {
    /// Decodes `T` from `data`, refusing keys `keys` does not allow.
    /// - Throws: `InputError` naming `file` and the key path (or line for syntax errors).
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data, file: String, keys: KeySchema? = nil) throws -> T {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            let detail = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String).map { ": " + lowercaseFirst($0) } ?? ""
            throw InputError(file: file, position: syntaxPosition(error, data: data), message: "invalid json" + detail)
        }
        if let keys { try keys.check(object, path: "", file: file) }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw describe(error, file: file)
        }
    }

    /// Renders a coding path as `rules[3].condition.urlFilter`.
    static func path(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text.isEmpty ? "top level" : text
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

    /// Foundation reports syntax errors as "... around line L, column C." or a byte offset; keep the line.
    private static func syntaxPosition(_ error: Error, data: Data) -> String? {
        let text = "\((error as NSError).userInfo)"
        if let range = text.range(of: #"line \d+, column \d+"#, options: .regularExpression) {
            return String(text[range])
        }
        if let range = text.range(of: #"character \d+"#, options: .regularExpression),
            let offset = Int(text[range].dropFirst("character ".count)) {
            let prefix = data.prefix(offset)
            let line = prefix.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
            let column = offset - (prefix.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
            return "line \(line), column \(column)"
        }
        return nil
    }
}
