import Foundation

/// Process settings that would otherwise make script results depend on the machine.
enum ProcessEnvironment {
    private static let pinned: Void = {
        // JavaScriptCore's Date formats local time through ICU, which reads TZ once; pin it to UTC
        // so `new Date().getHours()` is the same on every machine. Set before the first Date use.
        setenv("TZ", "UTC", 1)
        tzset()
    }()

    /// Pins the time zone (idempotent; cheap after the first call).
    static func pinForDeterminism() {
        _ = pinned
    }
}
