import Foundation

extension Support {
    /// This test process's own scratch folder, `<tmp>/adv-tests/<pid>`: every test's temporary
    /// files go under it, it is removed when the process exits, and a run removes the folders of
    /// earlier runs whose process is gone (one that crashed), so tests leave nothing in /tmp.
    public static let scratchRoot: URL = {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("adv-tests")
        try? FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? [] {
            // kill(pid, 0) fails with ESRCH for a process that no longer exists.
            if let pid = Int32(name), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH {
                try? FileManager.default.removeItem(at: base.appendingPathComponent(name))
            }
        }
        let root = base.appendingPathComponent(String(getpid()))
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        scratchPath = root.path
        atexit { if let path = Support.scratchPath { try? FileManager.default.removeItem(atPath: path) } }
        return root
    }()

    /// A new folder of its own under the scratch root, named from `name`, holding `files`
    /// (relative path -> text): an extension made for one test.
    public static func extensionFolder(_ name: String, _ files: [String: String]) throws -> URL {
        let folder = scratchRoot.appendingPathComponent("\(name)-\(UUID().uuidString)")
        for (path, text) in files {
            let file = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The scratch folder's path, for the exit handler (which may capture nothing).
    nonisolated(unsafe) static var scratchPath: String?
}
