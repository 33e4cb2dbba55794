/// Bad input (a rule file, request fixture, manifest or CLI argument): one clear
/// message naming the file and the position (JSON key path or line).
public struct InputError: Error, Equatable, CustomStringConvertible {
    /// The file the input came from (as the user named it), or `nil` for arguments.
    public let file: String?
    /// JSON key path (`rules[3].condition.urlFilter`) or `line 4`, when known.
    public let position: String?
    /// What is wrong and, where it helps, how to fix it.
    public let message: String

    /// Creates an input error.
    public init(file: String?, position: String? = nil, message: String) {
        self.file = file
        self.position = position
        self.message = message
    }

    /// `fixtures/requests/a.json: requests[2].type: unknown resource type 'img'`
    public var description: String {
        [file, position].compactMap { $0 }.map { "\($0): " }.joined() + message
    }
}
