extension JSONScanner {
    /// Reads any value as a `JSONValue`.
    /// - Parameter path: the value's path, built only for an error.
    /// - Throws: `JSONInputError` (syntax) when the value is malformed.
    public mutating func readValue(at path: @autoclosure () -> JSONPath) throws(JSONInputError) -> JSONValue {
        switch peekKind() {
        case .object:
            var members: [String: JSONValue] = [:]
            try readObject(at: path()) { (scanner: inout JSONScanner, key: String) throws(JSONInputError) in
                members[key] = try scanner.readValue(at: path().appending(key: key))
            }
            return .object(members)
        case .array:
            var elements: [JSONValue] = []
            try readArray(at: path()) { (scanner: inout JSONScanner, position: Int) throws(JSONInputError) in
                elements.append(try scanner.readValue(at: path().appending(index: position)))
            }
            return .array(elements)
        case .string: return .string(try readString(at: path()))
        case .number: return .number(try readNumber(at: path()))
        case .bool: return .bool(try readBool(at: path()))
        case .null:
            try readNull(at: path())
            return .null
        case nil: throw invalidValue(at: path())
        }
    }
}
