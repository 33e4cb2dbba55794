import Foundation

/// Resident memory of this process, for leak checks over long runs (Linux `/proc/self/statm`).
public enum ProcessMemory {
    /// Resident bytes. With `trimmingMalloc`, glibc's malloc first hands its free pages back to
    /// the system (`malloc_trim`), so what is counted is what is kept rather than what the
    /// allocator happens to hold on to.
    public static func residentBytes(trimmingMalloc: Bool = false) -> Int {
        if trimmingMalloc {
            // Swift's Glibc module leaves malloc.h out; the function is looked up instead.
            typealias Trim = @convention(c) (Int) -> Int32
            if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
                _ = unsafeBitCast(symbol, to: Trim.self)(0)
            }
        }
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
