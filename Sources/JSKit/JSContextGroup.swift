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
        // The scripts go first: each refers to the machine.
        scripts.removeAll()
        numberedScripts.removeAll()
        JSContextGroupRelease(ref)
    }

    /// Scripts parsed for this group, by URL and text (see ``script(_:sourceURL:)``).
    private var scripts: [ScriptKey: JSScript] = [:]
    private struct ScriptKey: Hashable {
        let sourceURL: String
        let source: String
    }
    /// Scripts kept by a number their maker gave them (see ``script(number:source:sourceURL:)``).
    private var numberedScripts: [Int: JSScript] = [:]
    /// At most this many scripts are kept; later ones are parsed each time they are asked for.
    public static let scriptCacheLimit = 1_024

    /// `source` parsed once for this group: the host's own scripts (a world's bootstrap, code the
    /// runtime generates) run in every new realm, and parsing them again for each one is most
    /// of what a realm costs to set up.
    /// - Throws: ``JSError`` (SyntaxError).
    public func script(_ source: String, sourceURL: String) throws -> JSScript {
        let key = ScriptKey(sourceURL: sourceURL, source: source)
        if let known = scripts[key] { return known }
        let made = try JSScript(source, sourceURL: sourceURL, group: self)
        if scripts.count < Self.scriptCacheLimit { scripts[key] = made }
        return made
    }

    /// The script numbered `number` for this group, parsed from `source()` the first time: for a
    /// host that generates many long sources and can name each by a number, so that a cached
    /// one costs neither reading its text nor hashing it. The host keeps the numbers unique in
    /// the group (one number, one text).
    /// - Throws: ``JSError`` (SyntaxError).
    public func script(number: Int, sourceURL: String, source: () throws -> String) throws -> JSScript {
        if let known = numberedScripts[number] { return known }
        let made = try JSScript(try source(), sourceURL: sourceURL, group: self)
        if numberedScripts.count < Self.scriptCacheLimit { numberedScripts[number] = made }
        return made
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
