/// Where a value sits in a JSON document: the keys and indexes leading to it from the top.
///
/// Rendered as `rules[3].condition.urlFilter`; a key that is not an identifier is
/// rendered as a quoted member, `headers["content-type"]`. The empty path is the whole document.
public struct JSONPath: Hashable, Sendable, CustomStringConvertible, ExpressibleByArrayLiteral {
    /// One step: an object member or an array element.
    public enum Component: Hashable, Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
        /// The member named by this key.
        case key(String)
        /// The element at this 0-based index.
        case index(Int)

        /// A key component.
        public init(stringLiteral value: String) { self = .key(value) }

        /// An index component.
        public init(integerLiteral value: Int) { self = .index(value) }
    }

    /// The steps from the top of the document.
    public var components: [Component]

    /// The whole document.
    public static let root = JSONPath()

    /// A path of `components`.
    public init(_ components: [Component] = []) {
        self.components = components
    }

    /// A path written as a list, `["rules", 3, "id"]`.
    public init(arrayLiteral elements: Component...) {
        self.components = elements
    }

    /// A path from a `Codable` coding path (keys with an integer value are array indexes).
    public init(codingPath: [any CodingKey]) {
        self.components = codingPath.map { key in key.intValue.map(Component.index) ?? .key(key.stringValue) }
    }

    /// True for the whole document.
    public var isEmpty: Bool { components.isEmpty }

    /// This path followed by the member `key`.
    public func appending(key: String) -> JSONPath {
        var copy = self
        copy.components.append(.key(key))
        return copy
    }

    /// This path followed by the element at `index`.
    public func appending(index: Int) -> JSONPath {
        var copy = self
        copy.components.append(.index(index))
        return copy
    }

    /// Adds the member `key` at the end.
    public mutating func append(key: String) {
        components.append(.key(key))
    }

    /// Adds the element at `index` at the end.
    public mutating func append(index: Int) {
        components.append(.index(index))
    }

    /// `a.b[2].c`, `["odd key"]`, empty for the whole document.
    public var description: String {
        var text = ""
        for component in components {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key) where Self.isIdentifier(key):
                text += text.isEmpty ? key : "." + key
            case .key(let key):
                text += "[" + JSONString.quoted(key) + "]"
            }
        }
        return text
    }

    /// Keys rendered bare: ASCII letters, digits, `_` and `$`, not starting with a digit.
    static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.utf8.first, !isDigit(first) else { return false }
        return key.utf8.allSatisfy { isDigit($0) || isLetter($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "$") }
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }
}
