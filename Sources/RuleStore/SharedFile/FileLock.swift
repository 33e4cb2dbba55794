#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// An exclusive `flock` on a lock file, held until `unlock()` or process exit.
///
/// The kernel drops a flock when its process dies, so a crashed writer never
/// leaves the shared file locked.
struct FileLock {
    private let descriptor: Int32

    /// Opens (creating if needed) and exclusively locks `url`, waiting for other holders.
    /// - Throws: `RuleStoreError.fileSystem` when the file cannot be opened or locked.
    init(url: URL) throws(RuleStoreError) {
        let fd = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .fileSystem(path: url.path, operation: "open lock file", code: errno) }
        while flock(fd, LOCK_EX) != 0 {
            let code = errno
            if code == EINTR { continue }
            close(fd)
            throw .fileSystem(path: url.path, operation: "flock", code: code)
        }
        descriptor = fd
    }

    /// Releases the lock.
    func unlock() {
        _ = flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
