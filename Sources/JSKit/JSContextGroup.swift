import CJavaScriptCore

/// A JavaScriptCore virtual machine. Contexts created in one group share a heap, so objects
/// made in one context can be handed to another (this is how worlds share one DOM).
///
/// A group and everything made in it must be used from one thread at a time.
public final class JSContextGroup {
    /// The underlying C reference, retained for the lifetime of this object.
    public let ref: JSContextGroupRef

    /// Creates a fresh virtual machine.
    public init() {
        ref = JSContextGroupCreate()
    }

    /// Wraps an existing group, retaining it.
    init(retaining ref: JSContextGroupRef) {
        self.ref = JSContextGroupRetain(ref)
    }

    deinit {
        JSContextGroupRelease(ref)
    }

    /// The execution time limit in seconds currently applied to each call into this group, if any.
    public private(set) var executionTimeLimit: Double?

    /// Stops any single entry into JavaScript (an evaluation or a call from Swift) that runs longer
    /// than `seconds` of CPU time. The script is terminated with an uncatchable exception, reported
    /// as ``JSError/isTermination``; the context stays usable afterwards.
    ///
    /// `JSContextGroupSetExecutionTimeLimit` is exported by the library but declared only in WebKit's
    /// private header Source/JavaScriptCore/API/JSContextRefPrivate.h (see the module's shim.h).
    /// A NULL callback means "always terminate when the limit is reached".
    public func setExecutionTimeLimit(seconds: Double) {
        executionTimeLimit = seconds
        JSContextGroupSetExecutionTimeLimit(ref, seconds, nil, nil)
    }

    /// Removes the execution time limit.
    public func clearExecutionTimeLimit() {
        executionTimeLimit = nil
        JSContextGroupClearExecutionTimeLimit(ref)
    }
}
