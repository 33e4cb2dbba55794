import Foundation

/// Process settings made before the first context group: the time zone, so that script results
/// do not depend on the machine, and two JavaScriptCore tunings for many short-lived sessions.
enum ProcessEnvironment {
    private static let prepared: Void = {
        // JavaScriptCore's Date formats local time through ICU, which reads TZ once; pin it to UTC
        // so `new Date().getHours()` is the same on every machine. Set before the first Date use.
        setenv("TZ", "UTC", 1)
        tzset()
        // A context group may allocate JSC's `smallHeapSize` (1 MB by default) before its first
        // collection. Loading domino and the runtime's layers allocates about 3 MB, so every
        // session paid two collections while starting, 6 to 13 ms of pauses (`JSC_logGC=1`
        // shows them). With 8 MB a session starts without one (fresh_session_ms 51 -> 45). The
        // price is paid by long-lived busy pages: a page that churns its DOM costs more per node
        // (mutation_cost_us 255 µs at 1 MB, 280 at 8 MB, 300 at 16 MB) and an hour of polling
        // takes longer (virtual_hour_ms 23 -> 27), both far inside their budgets; scenarios are
        // short, so suites come out ahead. JSC reads its JSC_* variables once, when the first VM
        // is made; a value already in the environment wins.
        setenv("JSC_smallHeapSize", "8388608", 0)
        // A function goes to JSC's optimizing compiler (DFG) after `thresholdForOptimizeAfterWarmUp`
        // executions (1,000 by default). A scenario's context group lives for tens of milliseconds,
        // so most of those compilations, made on a helper thread that competes with the other
        // jobs for the cores, finished after the code stopped running. At 10,000 only code that
        // stays hot gets them: the whole suite with --jobs 2 took 17% less wall time (5.3 s to
        // 4.4 s) and a long-lived process still optimizes its loops.
        setenv("JSC_thresholdForOptimizeAfterWarmUp", "10000", 0)
    }()

    /// Applies the settings (idempotent; cheap after the first call).
    static func prepare() {
        _ = prepared
    }
}
