/// Splits HTML into text, start tags and end tags (comments, doctypes and processing
/// instructions are skipped), after HTML's tokenizer in its common states.
struct HTMLScanner {
    enum Token: Equatable {
        case text(String)
        case startTag(String, [(name: String, value: String)], selfClosing: Bool)
        case endTag(String)

        static func == (lhs: Token, rhs: Token) -> Bool {
            switch (lhs, rhs) {
            case (.text(let a), .text(let b)): return a == b
            case (.endTag(let a), .endTag(let b)): return a == b
            case (.startTag(let a, let x, let s), .startTag(let b, let y, let t)):
                return a == b && s == t && x.map(\.name) == y.map(\.name) && x.map(\.value) == y.map(\.value)
            default: return false
            }
        }
    }

    private let chars: [Character]
    private var index = 0

    init(_ html: String) { chars = Array(html) }

    private func peek(_ offset: Int = 0) -> Character? {
        index + offset < chars.count ? chars[index + offset] : nil
    }

    private func starts(with text: String, at position: Int) -> Bool {
        var i = position
        for c in text {
            guard i < chars.count, chars[i].lowercased() == String(c) else { return false }
            i += 1
        }
        return true
    }

    private static func isSpace(_ c: Character?) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0C}" || c == "\r\n" }
    private static func isLetter(_ c: Character?) -> Bool { c.map { $0.isASCII && $0.isLetter } ?? false }

    mutating func next() -> Token? {
        guard index < chars.count else { return nil }
        if peek() == "<" {
            if starts(with: "<!--", at: index) {
                skip(past: "-->", from: index + 4)
                return next()
            }
            if peek(1) == "!" || peek(1) == "?" {
                skip(past: ">", from: index + 2)
                return next()
            }
            if peek(1) == "/", Self.isLetter(peek(2)) {
                index += 2
                let name = readTagName()
                skip(past: ">", from: index)
                return .endTag(name)
            }
            if peek(1) == "/" {
                skip(past: ">", from: index + 2) // `</>` and `</ x>` are dropped
                return next()
            }
            if Self.isLetter(peek(1)) {
                index += 1
                return startTag()
            }
        }
        let start = index
        index += 1
        while let c = peek(), c != "<" { index += 1 }
        return .text(String(chars[start..<index]))
    }

    private mutating func skip(past end: String, from position: Int) {
        var i = position
        while i < chars.count, !starts(with: end, at: i) { i += 1 }
        index = min(chars.count, i + end.count)
    }

    private mutating func readTagName() -> String {
        var name = ""
        while let c = peek(), !Self.isSpace(c), c != "/", c != ">" {
            name += c.lowercased()
            index += 1
        }
        return name
    }

    private mutating func startTag() -> Token {
        let name = readTagName()
        var attributes: [(name: String, value: String)] = []
        var selfClosing = false
        while let c = peek() {
            if Self.isSpace(c) { index += 1; continue }
            if c == ">" { index += 1; break }
            if c == "/" {
                index += 1
                if peek() == ">" { selfClosing = true }
                continue
            }
            var attribute = ""
            attribute += c.lowercased()
            index += 1
            while let c = peek(), !Self.isSpace(c), c != "/", c != ">", c != "=" {
                attribute += c.lowercased()
                index += 1
            }
            while Self.isSpace(peek()) { index += 1 }
            var value = ""
            if peek() == "=" {
                index += 1
                while Self.isSpace(peek()) { index += 1 }
                if let quote = peek(), quote == "\"" || quote == "'" {
                    index += 1
                    while let c = peek(), c != quote { value.append(c); index += 1 }
                    index += 1
                } else {
                    while let c = peek(), !Self.isSpace(c), c != ">" { value.append(c); index += 1 }
                }
            }
            if !attributes.contains(where: { $0.name == attribute }) {
                attributes.append((attribute, Self.decodeReferences(value)))
            }
        }
        return .startTag(name, attributes, selfClosing: selfClosing)
    }

    /// The text of a raw-text or RCDATA element up to its end tag, which is consumed.
    mutating func rawText(until tag: String) -> String {
        let start = index
        while index < chars.count {
            if peek() == "<", peek(1) == "/", starts(with: tag, at: index + 2),
                let after = index + 2 + tag.count < chars.count ? chars[index + 2 + tag.count] : nil,
                Self.isSpace(after) || after == ">" || after == "/" {
                let text = String(chars[start..<index])
                skip(past: ">", from: index + 2)
                return text
            }
            index += 1
        }
        return String(chars[start..<index])
    }

    /// Decodes `&amp; &lt; &gt; &quot; &apos; &nbsp;` and numeric references; others stay as written.
    static func decodeReferences(_ text: String) -> String {
        guard text.contains("&") else { return text }
        let named: [String: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}"]
        var result = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            rest = rest[amp...]
            guard let semicolon = rest.firstIndex(of: ";"), rest.distance(from: rest.startIndex, to: semicolon) <= 10 else {
                result += "&"
                rest = rest.dropFirst()
                continue
            }
            let body = rest[rest.index(after: rest.startIndex)..<semicolon]
            var decoded: String?
            if body.hasPrefix("#x") || body.hasPrefix("#X") {
                decoded = UInt32(body.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            } else if body.hasPrefix("#") {
                decoded = UInt32(body.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            } else {
                decoded = named[String(body)]
            }
            if let decoded {
                result += decoded
                rest = rest[rest.index(after: semicolon)...]
            } else {
                result += "&"
                rest = rest.dropFirst()
            }
        }
        return result + rest
    }
}
