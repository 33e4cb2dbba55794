/// A JSON document that cannot be read: where (file, line, column, JSON path) and why.
///
/// Rendered like a compiler diagnostic, `scenario.json:4:17: steps[2].at: must be a number`,
/// so editors and terminals can jump to the spot; parts that are not known are left out.
public struct JSONInputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of problem this is, for readers that report the two differently.
    public enum Kind: Sendable, Equatable {
        /// The text is not JSON this reader accepts: RFC 8259 grammar, UTF-8, no duplicate
        /// keys, within the nesting and number limits.
        case syntax
        /// Valid JSON, but not the value the reader asked for (a string where a number belongs).
        case shape
    }

    /// The file the document came from, as the user named it; `nil` when not known.
    public var file: String?
    /// 1-based line of `offset`.
    public var line: Int?
    /// 1-based column of `offset`, counted in characters of its line.
    public var column: Int?
    /// JSON path of the value concerned (`rules[3].condition.urlFilter`); empty for the whole document.
    public var path: String
    /// What is wrong, lowercase, naming the offending value in quotes.
    public var message: String
    /// Byte offset in the document that `line` and `column` describe.
    public var offset: Int?
    /// Syntax or shape.
    public var kind: Kind

    /// Creates an error; the scanner fills `line` and `column` from `offset`.
    public init(
        file: String? = nil, line: Int? = nil, column: Int? = nil, path: String = "", message: String,
        offset: Int? = nil, kind: Kind = .shape
    ) {
        self.file = file
        self.line = line
        self.column = column
        self.path = path
        self.message = message
        self.offset = offset
        self.kind = kind
    }

    /// The same error naming `file` as the document's source.
    public func with(file: String?) -> JSONInputError {
        var copy = self
        copy.file = file
        return copy
    }

    /// `file:line:column: path: message`, leaving out what is unknown.
    public var description: String {
        var location = file ?? ""
        if let line {
            location += location.isEmpty ? "\(line)" : ":\(line)"
            if let column { location += ":\(column)" }
        }
        return [location, path, message].filter { !$0.isEmpty }.joined(separator: ": ")
    }
}
