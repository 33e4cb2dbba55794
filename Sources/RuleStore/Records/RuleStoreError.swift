import Foundation

/// Everything that can go wrong reading, checking or storing personal rules, as values the app can show.
public enum RuleStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Input that is not a valid rule document; `keyPath` is like `rules[3].hostname`, empty for the whole input.
    case invalidDocument(file: String?, keyPath: String, reason: String)
    /// The encoded collection exceeds `RuleCodec.sizeLimit`; nothing was written.
    case collectionTooLarge(file: String?, bytes: Int, limit: Int)
    /// The stored shared file failed validation; it is left exactly as it was.
    case corruptFile(path: String, reason: String)
    /// A file-system call failed with `errno` `code`.
    case fileSystem(path: String, operation: String, code: Int32)

    /// The same error, naming `file` as its source when it does not name one yet.
    public func located(in file: String) -> RuleStoreError {
        switch self {
        case .invalidDocument(nil, let keyPath, let reason):
            return .invalidDocument(file: file, keyPath: keyPath, reason: reason)
        case .collectionTooLarge(nil, let bytes, let limit):
            return .collectionTooLarge(file: file, bytes: bytes, limit: limit)
        default:
            return self
        }
    }

    /// One lowercase line naming the file and position, suitable for a CLI or the app.
    public var description: String {
        switch self {
        case .invalidDocument(let file, let keyPath, let reason):
            return [file, keyPath.isEmpty ? nil : keyPath, reason].compactMap { $0 }.joined(separator: ": ")
        case .collectionTooLarge(let file, let bytes, let limit):
            let message = "the rule collection encodes to \(bytes) bytes, over the limit of \(limit) bytes; "
                + "nothing was written (remove rules, or split them across sites you still need)"
            return [file, message].compactMap { $0 }.joined(separator: ": ")
        case .corruptFile(let path, let reason):
            return "\(path): shared rule file is unreadable (\(reason)); it was left untouched: "
                + "restore it from a backup or move it aside to start empty"
        case .fileSystem(let path, let operation, let code):
            return "\(path): \(operation) failed: \(String(cString: strerror(code)).lowercased())"
        }
    }
}
