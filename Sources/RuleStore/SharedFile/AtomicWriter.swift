#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Replaces a file's contents atomically and durably: temp file, fsync, rename, fsync directory.
///
/// Callers that hold the file's lock pass `sweepsStaleTempFiles`: only under the
/// lock is every existing temp file known to belong to a writer that died mid-write.
package struct AtomicWriter {
    let destination: URL
    var sweepsStaleTempFiles = true
    let stepHook: (SharedFileWriteStep) throws -> Void

    /// A writer for `destination`; `stepHook` runs before each step (tests inject crashes there).
    package init(destination: URL, sweepsStaleTempFiles: Bool = true, stepHook: @escaping (SharedFileWriteStep) throws -> Void) {
        self.destination = destination
        self.sweepsStaleTempFiles = sweepsStaleTempFiles
        self.stepHook = stepHook
    }

    private var directory: URL { destination.deletingLastPathComponent() }
    private var tempPrefix: String { "." + destination.lastPathComponent + ".tmp-" }

    /// Writes `data` to `destination`; on any failure the destination is unchanged.
    /// - Throws: `RuleStoreError.fileSystem`, or whatever the step hook throws.
    package func replaceContents(with data: Data) throws {
        if sweepsStaleTempFiles { sweepStaleTempFiles() }
        let temp = directory.appendingPathComponent(tempPrefix + "\(getpid())-\(UInt32.random(in: .min ... .max))")
        let fd = open(temp.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw RuleStoreError.fileSystem(path: temp.path, operation: "create", code: errno) }
        var renamed = false
        defer {
            if !renamed { unlink(temp.path) }
        }
        do {
            defer { close(fd) }
            try writeAll(fd, data, path: temp.path)
            try stepHook(.tempWritten)
            guard fsync(fd) == 0 else { throw RuleStoreError.fileSystem(path: temp.path, operation: "fsync", code: errno) }
            try stepHook(.tempSynced)
        }
        guard rename(temp.path, destination.path) == 0 else {
            throw RuleStoreError.fileSystem(path: destination.path, operation: "rename", code: errno)
        }
        renamed = true
        try stepHook(.renamed)
        try syncDirectory()
        try stepHook(.directorySynced)
    }

    private func writeAll(_ fd: Int32, _ data: Data, path: String) throws {
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw RuleStoreError.fileSystem(path: path, operation: "write", code: errno)
                }
                offset += written
            }
        }
    }

    private func syncDirectory() throws {
        let fd = open(directory.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw RuleStoreError.fileSystem(path: directory.path, operation: "open directory", code: errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 else {
            throw RuleStoreError.fileSystem(path: directory.path, operation: "fsync directory", code: errno)
        }
    }

    private func sweepStaleTempFiles() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasPrefix(tempPrefix) {
            unlink(directory.appendingPathComponent(name).path)
        }
    }
}
