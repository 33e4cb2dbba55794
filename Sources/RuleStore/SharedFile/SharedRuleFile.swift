import Foundation

/// The App Group rule file shared by the native app and the Safari extension.
///
/// Writers serialize on an exclusive `flock` of a sibling `.lock` file and replace the
/// data file atomically (temp file in the same directory, fsync, rename, fsync of the
/// directory), so a reader always sees one complete version without locking. The lock
/// lives on a separate file because `rename` gives the data file a new inode: a lock
/// taken on the old inode would not exclude a writer that opened the new one.
///
/// A file that fails validation is reported as `RuleStoreError.corruptFile` and is
/// never overwritten by `update`; only the explicit `moveAsideCorruptFile()` touches it.
public final class SharedRuleFile: Sendable {
    /// The data file.
    public let url: URL
    /// The lock file beside it.
    public var lockURL: URL { url.appendingPathExtension("lock") }

    /// Called at each step of a write; tests inject crashes and faults here.
    let stepHook: @Sendable (SharedFileWriteStep) throws -> Void

    /// A handle on the rule file at `url`; nothing is touched until a read or update.
    public convenience init(url: URL) {
        self.init(url: url, stepHook: { _ in })
    }

    init(url: URL, stepHook: @escaping @Sendable (SharedFileWriteStep) throws -> Void) {
        self.url = url
        self.stepHook = stepHook
    }

    /// The current document; an absent file reads as empty.
    /// - Throws: `RuleStoreError.corruptFile` when the file fails validation,
    ///   `.fileSystem` when it cannot be read.
    public func read() throws(RuleStoreError) -> RuleDocument {
        try snapshot().document
    }

    /// Reads, lets `body` change the document, and writes it back, all under the exclusive lock.
    ///
    /// Nothing is written when `body` throws, when the document did not change, or
    /// when the result is over the size limit.
    /// - Returns: What `body` returned.
    /// - Throws: `RuleStoreError` from reading, `body`, encoding or writing; any other
    ///   error `body` or the step hook throws is passed through unchanged.
    @discardableResult
    public func update<T>(_ body: (inout RuleDocument) throws -> T) throws -> T {
        let lock = try FileLock(url: lockURL)
        defer { lock.unlock() }
        try stepHook(.locked)
        let before = try snapshot()
        try stepHook(.read)
        var document = before.document
        let result = try body(&document)
        guard document != before.document else { return result }
        let data = try RuleCodec.encodeChecked(document)
        try stepHook(.encoded)
        try AtomicWriter(destination: url, stepHook: stepHook).replaceContents(with: data)
        return result
    }

    /// Renames an unreadable file to `<name>.corrupt-<revision>` so the next write starts empty.
    ///
    /// The explicit way out of `corruptFile`; the bytes are kept for inspection.
    /// - Returns: Where the file went, or nil when the file was missing or valid.
    /// - Throws: `RuleStoreError.fileSystem` when the rename fails.
    @discardableResult
    public func moveAsideCorruptFile() throws(RuleStoreError) -> URL? {
        let lock = try FileLock(url: lockURL)
        defer { lock.unlock() }
        guard case .corrupt = state().status, let data = try? Data(contentsOf: url) else { return nil }
        let target = url.appendingPathExtension("corrupt-\(Revision.of(data))")
        guard rename(url.path, target.path) == 0 else {
            throw .fileSystem(path: url.path, operation: "rename", code: errno)
        }
        return target
    }

    /// The file's bytes and validated document.
    func snapshot() throws(RuleStoreError) -> (data: Data?, document: RuleDocument) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            let code = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.code
            if !FileManager.default.fileExists(atPath: url.path) { return (nil, RuleDocument()) }
            throw .fileSystem(path: url.path, operation: "read", code: Int32(code ?? Int(EIO)))
        }
        do {
            return (data, try RuleCodec.decode(data))
        } catch {
            throw .corruptFile(path: url.path, reason: error.description)
        }
    }
}
