import Foundation

/// Process settings made before the first context group: the time zone, so that script results
/// do not depend on the machine, and when JavaScriptCore first collects garbage.
enum ProcessEnvironment {
    private static let prepared: Void = {
        // JavaScriptCore's Date formats local time through ICU, which reads TZ once; pin it to UTC
        // so `new Date().getHours()` is the same on every machine. Set before the first Date use.
        setenv("TZ", "UTC", 1)
        tzset()
        // A context group may allocate JSC's `smallHeapSize` (1 MB by default) before its first
        // collection. Loading domino and the runtime's layers allocates about 3 MB, so every
        // session paid two collections while starting, 6 to 13 ms of pauses (`JSC_logGC=1`
        // shows them). With 16 MB a session starts without one. JSC reads its JSC_* variables
        // once, when the first VM is made; a value already in the environment wins.
        setenv("JSC_smallHeapSize", "16777216", 0)
    }()

    /// Applies the settings (idempotent; cheap after the first call).
    static func prepare() {
        _ = prepared
    }
}
