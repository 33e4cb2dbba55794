import BlockerCore
import Foundation
import RuleStore

/// Small file helpers: standard error, and all-or-nothing writes.
enum FileHandleWriter {
    static func standardError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Writes `data` to `path` through a temporary file in the same folder and a rename
    /// (RuleStore's ``AtomicWriter``), so a reader never sees half a file and a failure leaves
    /// the old file intact.
    /// - Throws: `InputError` naming the path.
    static func writeAtomically(_ data: Data, to path: String) throws {
        let url = URL(fileURLWithPath: resolve(path))
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue {
            throw InputError(file: path, message: "is a folder; it is left as it is (give the path of a file)")
        }
        let folder = url.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw InputError(file: path, message: "folder '\(folder.path)' does not exist")
        }
        // The rule store's writer: temp file, fsync, rename, fsync of the folder. No lock is held
        // here, so other writers' temporary files are left alone.
        do {
            try AtomicWriter(destination: url, sweepsStaleTempFiles: false, stepHook: { _ in }).replaceContents(with: data)
        } catch {
            throw InputError(file: path, message: "cannot write: \(error)")
        }
    }

    /// The folder relative paths are resolved against: the process's working
    /// directory unless a caller (a test) runs the commands for another folder.
    @TaskLocal static var baseDirectory: String?

    /// `path` made absolute against `baseDirectory` when one is set.
    static func resolve(_ path: String) -> String {
        guard let base = baseDirectory, !path.hasPrefix("/") else { return path }
        return base + "/" + path
    }

    /// Reads a whole file.
    /// - Throws: `InputError` naming the path.
    static func read(_ path: String) throws -> Data {
        guard let data = FileManager.default.contents(atPath: resolve(path)) else {
            throw InputError(file: path, message: "cannot read file (missing or unreadable)")
        }
        return data
    }
}
