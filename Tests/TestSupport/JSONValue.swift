import BrowserRuntime
import Foundation
import ScenarioKit
import WebRuntime

/// A JSON value, compared by its canonical text (sorted keys, numbers as JSON writes them).
public indirect enum JSONValue: Decodable, Sendable {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let b = try? container.decode(Bool.self) { self = .bool(b) }
        else if let n = try? container.decode(Double.self) { self = .number(n) }
        else if let s = try? container.decode(String.self) { self = .string(s) }
        else if let a = try? container.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    /// Canonical JSON text.
    public var canonical: String {
        switch self {
        case .null: return "null"
        case let .bool(b): return b ? "true" : "false"
        case let .number(n): return n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
        case let .string(s):
            let data = (try? JSONSerialization.data(withJSONObject: s, options: [.fragmentsAllowed])) ?? Data()
            return String(decoding: data, as: UTF8.self)
        case let .array(a): return "[" + a.map(\.canonical).joined(separator: ",") + "]"
        case let .object(o): return "{" + o.keys.sorted().map { JSONValue.string($0).canonical + ":" + (o[$0]?.canonical ?? "null") }.joined(separator: ",") + "}"
        }
    }
}
