extension JSONPath {
    /// The path `description` renders as `text` (`rules[3].id`, `a["odd key"][0]`); nil
    /// for text that is no path. Lets errors that carry a rendered path be located.
    ///
    /// Bare keys may be any text without `.` or `[` (`icons.16`), so paths written by
    /// hand in the same style are read too.
    public init?(rendered text: String) {
        let bytes = Array(text.utf8)
        var components: [Component] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == ASCII.openBracket {
                guard let (component, next) = Self.bracket(bytes, at: index) else { return nil }
                components.append(component)
                index = next
                continue
            }
            // A bare key: first in the path, or after a dot.
            if byte == ASCII.dot {
                guard !components.isEmpty else { return nil }
                index += 1
            } else if !components.isEmpty {
                return nil
            }
            let start = index
            while index < bytes.count, bytes[index] != ASCII.dot, bytes[index] != ASCII.openBracket { index += 1 }
            guard index > start else { return nil }
            components.append(.key(String(decoding: bytes[start..<index], as: UTF8.self)))
        }
        self.init(components)
    }

    /// `[3]` or `["odd key"]` at `start`: the component and the offset after the `]`.
    private static func bracket(_ bytes: [UInt8], at start: Int) -> (Component, Int)? {
        var index = start + 1
        if index < bytes.count, bytes[index] == ASCII.quote {
            var scanner = JSONScanner(bytes)
            scanner.index = index
            guard let key = try? scanner.readString(at: .root), scanner.peek() == ASCII.closeBracket else { return nil }
            return (.key(key), scanner.index + 1)
        }
        let digits = index
        while index < bytes.count, ASCII.isDigit(bytes[index]) { index += 1 }
        guard index > digits, index < bytes.count, bytes[index] == ASCII.closeBracket,
              let value = Int(String(decoding: bytes[digits..<index], as: UTF8.self)) else { return nil }
        return (.index(value), index + 1)
    }
}
