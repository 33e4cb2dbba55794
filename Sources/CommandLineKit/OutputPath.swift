import Foundation

/// Where a command will write, checked before it does anything: a tool run unattended must never
/// replace what it did not make, nor fail half-way for a path it could have refused at the start.
public enum OutputPath {
    /// Checks that `path` can become a file the command writes: it is not an existing folder, no
    /// part of it is a file, and the nearest folder that exists is writable (missing folders
    /// will be made).
    /// - Parameters:
    ///   - path: the path as the file system sees it (already resolved).
    ///   - shown: the path as the user gave it, for the message.
    ///   - option: the option or argument that named it (`--junit`, `output.json`).
    /// - Throws: ``UsageError`` saying what is wrong and how to fix it.
    public static func checkFile(_ path: String, shown: String? = nil, option: String) throws {
        let shown = shown ?? path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw UsageError("\(option) '\(shown)' is a folder; give the path of a file to write")
        }
        try checkParent(of: path, shown: shown, option: option)
    }

    /// Checks that the folders above `path` exist or can be made: the nearest existing one is a
    /// writable folder, not a file.
    /// - Throws: ``UsageError`` naming the file in the way or the folder that cannot be written.
    public static func checkParent(of path: String, shown: String? = nil, option: String) throws {
        let shown = shown ?? path
        var ancestor = URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent()
        while true {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isDirectory) {
                guard isDirectory.boolValue else {
                    throw UsageError("\(option) '\(shown)' lies under '\(ancestor.path)', which is a file, not a folder")
                }
                guard access(ancestor.path, W_OK) == 0 else {
                    throw UsageError("\(option) '\(shown)': cannot write into the folder '\(ancestor.path)'")
                }
                return
            }
            let parent = ancestor.deletingLastPathComponent()
            if parent.path == ancestor.path { return }
            ancestor = parent
        }
    }
}
