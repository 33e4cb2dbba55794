/// One token of CSS Syntax Level 3 (§4), as far as selectors need them.
struct CSSToken: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        case ident(String)
        case function(String)
        case atKeyword(String)
        /// `#name`; `isID` when the name would also be a valid identifier (what `#id` needs).
        case hash(String, isID: Bool)
        case string(String)
        case badString
        /// A number; `representation` is its text as written (An+B reads the sign from it).
        case number(Double, isInteger: Bool, representation: String)
        case percentage(Double)
        case dimension(Double, isInteger: Bool, representation: String, unit: String)
        case whitespace
        case delim(Character)
        case colon, comma, semicolon
        case leftBracket, rightBracket, leftParen, rightParen, leftBrace, rightBrace
        case cdo, cdc
        case badURL
    }

    let kind: Kind
    /// 1-based position of the token's first character in the selector, for messages.
    let position: Int

    /// The token as a user would name it in a message.
    var text: String {
        switch kind {
        case .ident(let name): return name
        case .function(let name): return name + "("
        case .atKeyword(let name): return "@" + name
        case .hash(let name, _): return "#" + name
        case .string(let value): return "\"" + value + "\""
        case .badString: return "an unclosed string"
        case .number(_, _, let text), .dimension(_, _, let text, _): return text
        case .percentage(let value): return "\(value)%"
        case .whitespace: return " "
        case .delim(let character): return String(character)
        case .colon: return ":"
        case .comma: return ","
        case .semicolon: return ";"
        case .leftBracket: return "["
        case .rightBracket: return "]"
        case .leftParen: return "("
        case .rightParen: return ")"
        case .leftBrace: return "{"
        case .rightBrace: return "}"
        case .cdo: return "<!--"
        case .cdc: return "-->"
        case .badURL: return "url("
        }
    }
}
