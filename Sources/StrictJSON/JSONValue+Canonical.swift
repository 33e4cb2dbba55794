extension JSONValue {
    /// Canonical JSON text, for comparing values: object keys sorted, whole numbers below
    /// 10^15 without a fraction (`1`, not `1.0`), no whitespace, strings escaped minimally.
    public var canonical: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value):
            // Int64(exactly:) is nil for NaN and infinities, which then print as Swift does.
            if value == value.rounded(), abs(value) < 1e15, let whole = Int64(exactly: value) { return String(whole) }
            return String(value)
        case .string(let value): return JSONString.quoted(value)
        case .array(let elements): return "[" + elements.map(\.canonical).joined(separator: ",") + "]"
        case .object(let members):
            let pairs = members.keys.sorted().map { key in JSONString.quoted(key) + ":" + (members[key]?.canonical ?? "null") }
            return "{" + pairs.joined(separator: ",") + "}"
        }
    }
}
