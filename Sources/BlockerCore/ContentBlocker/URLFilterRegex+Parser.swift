extension URLFilterRegex {
    /// Recursive-descent parser for the subset; one instance per expression.
    struct Parser {
        let bytes: [UInt8]
        let source: String
        let caseSensitive: Bool
        var position = 0

        init(bytes: [UInt8], source: String, caseSensitive: Bool) {
            self.bytes = bytes
            self.source = source
            self.caseSensitive = caseSensitive
        }

        func fail(_ reason: String, at offset: Int? = nil) -> URLFilterRegexError {
            URLFilterRegexError(source: source, offset: offset ?? position, reason: reason)
        }

        mutating func parse() throws -> (terms: [Term], start: Bool, end: Bool) {
            if bytes.isEmpty { throw fail("empty pattern") }
            if let index = bytes.firstIndex(where: { $0 >= 0x80 }) {
                throw fail("only ascii characters are supported", at: index)
            }
            var start = false
            if bytes.first == UInt8(ascii: "^") {
                start = true
                position = 1
            }
            let (terms, end) = try parseSequence(inGroup: false)
            return (terms, start, end)
        }

        /// Terms up to `)` (in a group) or the end; returns whether a final `$` was seen.
        mutating func parseSequence(inGroup: Bool) throws -> ([Term], Bool) {
            var terms: [Term] = []
            while position < bytes.count {
                let byte = bytes[position]
                switch byte {
                case UInt8(ascii: ")"):
                    if inGroup { return (terms, false) }
                    throw fail("unbalanced ')'")
                case UInt8(ascii: "|"):
                    throw fail("alternation '|' is not supported")
                case UInt8(ascii: "$"):
                    if !inGroup && position == bytes.count - 1 {
                        position += 1
                        return (terms, true)
                    }
                    throw fail("'$' can only be the last character")
                case UInt8(ascii: "^"):
                    throw fail("'^' can only be the first character")
                case UInt8(ascii: "?"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "{"):
                    throw fail("quantifier '\(Character(Unicode.Scalar(byte)))' has nothing to repeat")
                default:
                    let atom = try parseAtom()
                    terms.append(try parseQuantifier(atom))
                }
            }
            if inGroup { throw fail("unterminated group '('") }
            return (terms, false)
        }

        mutating func parseQuantifier(_ atom: Atom) throws -> Term {
            guard position < bytes.count else { return Term(atom: atom, min: 1, max: 1) }
            let term: Term
            switch bytes[position] {
            case UInt8(ascii: "?"): term = Term(atom: atom, min: 0, max: 1)
            case UInt8(ascii: "*"): term = Term(atom: atom, min: 0, max: Int.max)
            case UInt8(ascii: "+"): term = Term(atom: atom, min: 1, max: Int.max)
            case UInt8(ascii: "{"): throw fail("counted repetition '{n,m}' is not supported")
            default: return Term(atom: atom, min: 1, max: 1)
            }
            position += 1
            if position < bytes.count, "?*+{".utf8.contains(bytes[position]) {
                throw fail("a quantifier cannot follow a quantifier (no lazy or possessive forms)")
            }
            return term
        }

        mutating func parseAtom() throws -> Atom {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "."):
                return .any
            case UInt8(ascii: "("):
                if position + 1 < bytes.count, bytes[position] == UInt8(ascii: "?") {
                    if bytes[position + 1] == UInt8(ascii: ":") {
                        position += 2
                    } else {
                        throw fail("lookaround and special groups are not supported")
                    }
                }
                let (inner, _) = try parseSequence(inGroup: true)
                position += 1  // ')'
                return .group(inner)
            case UInt8(ascii: "["):
                return try parseSet()
            case UInt8(ascii: "\\"):
                return .byte(fold(try parseEscape()))
            default:
                return .byte(fold(byte))
            }
        }

        mutating func parseEscape() throws -> UInt8 {
            guard position < bytes.count else { throw fail("trailing backslash") }
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "d"), UInt8(ascii: "D"), UInt8(ascii: "w"), UInt8(ascii: "W"), UInt8(ascii: "s"), UInt8(ascii: "S"):
                throw fail("built-in character classes such as '\\\(Character(Unicode.Scalar(byte)))' are not supported", at: position - 2)
            case UInt8(ascii: "b"), UInt8(ascii: "B"):
                throw fail("word boundary assertions are not supported", at: position - 2)
            case UInt8(ascii: "1")...UInt8(ascii: "9"):
                throw fail("back-references are not supported", at: position - 2)
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0"):
                throw fail("escape '\\\(Character(Unicode.Scalar(byte)))' is not supported", at: position - 2)
            default:
                return byte
            }
        }

        mutating func parseSet() throws -> Atom {
            var negated = false
            if position < bytes.count, bytes[position] == UInt8(ascii: "^") {
                negated = true
                position += 1
            }
            var members = [Bool](repeating: false, count: 128)
            var first = true
            while true {
                guard position < bytes.count else { throw fail("unterminated character set '['") }
                var byte = bytes[position]
                position += 1
                if byte == UInt8(ascii: "]") && !first { break }
                first = false
                if byte == UInt8(ascii: "\\") { byte = try parseEscape() }
                var upper = byte
                if position + 1 < bytes.count, bytes[position] == UInt8(ascii: "-"), bytes[position + 1] != UInt8(ascii: "]") {
                    position += 1
                    upper = bytes[position]
                    position += 1
                    if upper == UInt8(ascii: "\\") { upper = try parseEscape() }
                    if upper < byte { throw fail("character range out of order") }
                }
                for member in byte...upper where member < 128 {
                    members[Int(member)] = true
                    if !caseSensitive { members[Int(URLFilterPattern.lower(member))] = true; members[Int(Self.upper(member))] = true }
                }
            }
            var low: UInt64 = 0
            var high: UInt64 = 0
            for index in 0..<128 where members[index] != negated {
                if index < 64 { low |= 1 << UInt64(index) } else { high |= 1 << UInt64(index - 64) }
            }
            return .set(low: low, high: high)
        }

        func fold(_ byte: UInt8) -> UInt8 { caseSensitive ? byte : URLFilterPattern.lower(byte) }

        static func upper(_ byte: UInt8) -> UInt8 {
            byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 32 : byte
        }
    }
}
