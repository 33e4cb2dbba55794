/// Bad input (a rule file, request fixture, manifest or CLI argument): one clear
/// message naming the file and the position (line, column and JSON key path).
public struct InputError: Error, Equatable, CustomStringConvertible {
    /// The file the input came from (as the user named it), or `nil` for arguments.
    public let file: String?
    /// 1-based line in `file`, when known.
    public let line: Int?
    /// 1-based column in `line`, counted in characters, when known.
    public let column: Int?
    /// JSON key path (`rules[3].condition.urlFilter`, `top level`) or another position
    /// (`line 4` of a page), when known.
    public let path: String?
    /// What is wrong and, where it helps, how to fix it.
    public let message: String

    /// Creates an input error at a key path or other position.
    public init(file: String?, position: String? = nil, message: String) {
        self.init(file: file, line: nil, column: nil, path: position, message: message)
    }

    /// Creates an input error at a line and column and, when known, a key path.
    public init(file: String?, line: Int?, column: Int?, path: String?, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.path = path
        self.message = message
    }

    /// One position for callers that show one: the key path, else `line 4, column 17`.
    public var position: String? {
        path ?? line.map { "line \($0), column \(column ?? 1)" }
    }

    /// `rules.json:4:17: rules[3].condition.urlFilter: unknown key 'urlfilter'`, or
    /// `fixtures/requests/a.json: requests[2].type: unknown resource type 'img'` when the
    /// line is not known; parts that are not known are left out.
    public var description: String {
        var location = file.map { [$0] } ?? []
        if let line {
            location.append(String(line))
            if let column { location.append(String(column)) }
        }
        let prefix = location.isEmpty ? "" : location.joined(separator: ":") + ": "
        return prefix + (path.map { "\($0): " } ?? "") + message
    }
}
