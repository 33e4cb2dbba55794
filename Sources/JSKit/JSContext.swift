import CJavaScriptCore

/// A JavaScript global object (a realm) inside a ``JSContextGroup``.
public final class JSContext {
    /// The underlying global context, retained for the lifetime of this object.
    public let ref: JSGlobalContextRef
    /// The virtual machine this context belongs to.
    public let group: JSContextGroup

    /// Creates a new realm in `group`, optionally named for debugging.
    ///
    /// With `globalClassName`, the global object is made from a JSClass of that name. Its
    /// prototype is then an ordinary object of its own (JSContextRef.cpp gives a class-made global
    /// the class's automatic prototype), which, unlike the global itself and `Object.prototype`,
    /// may be given a new prototype: that is how a window's global reaches shared objects.
    public init(group: JSContextGroup, name: String? = nil, globalClassName: String? = nil) {
        self.group = group
        ref = JSGlobalContextCreateInGroup(group.ref, globalClassName.map { GlobalClasses.shared.named($0) } ?? nil)
        self.name = name
        if let name { withJSString(name) { JSGlobalContextSetName(ref, $0) } }
    }

    /// Allows or refuses `eval` and `new Function` in this realm; refused, each throws an
    /// EvalError with `message` (a Content Security Policy without 'unsafe-eval').
    public func setEvalEnabled(_ enabled: Bool, message: String) {
        withJSString(message) { JSGlobalContextSetEvalEnabled(ref, enabled, $0) }
    }

    /// The realm's name, for debugging (Web Inspector shows it).
    public var name: String? {
        didSet {
            guard let name else { return }
            withJSString(name) { JSGlobalContextSetName(ref, $0) }
        }
    }

    /// Wraps the global context of `ctx` (as handed to a host callback), retaining it.
    public init(borrowing ctx: JSContextRef) {
        ref = JSGlobalContextRetain(JSContextGetGlobalContext(ctx))
        group = JSContextGroup(retaining: JSContextGetGroup(ctx))
    }

    deinit {
        if let cached = functionPrototypeRef { JSValueUnprotect(ref, cached) }
        JSGlobalContextRelease(ref)
    }

    /// `Function.prototype`, looked up once (host functions are made often). Held as a protected raw
    /// reference, not a ``JSValue``, which would keep this context alive in a cycle.
    var functionPrototypeRef: JSValueRef?

    /// The realm's global object (`globalThis`).
    public var globalObject: JSValue {
        JSValue(JSContextGetGlobalObject(ref), in: self)
    }

    /// Asks for a garbage collection of the group's heap. With `synchronous`, runs a full
    /// collection now, finalizers included (for tests and memory measurements).
    public func garbageCollect(synchronous: Bool = false) {
        if synchronous {
            JSSynchronousGarbageCollectForDebugging(ref)
        } else {
            JSGarbageCollect(ref)
        }
    }

    /// Statistics of the group's heap after the last collection: `heapSize`, `objectCount`,
    /// `globalObjectCount`, `protectedObjectCount` and others, as JavaScriptCore reports them.
    public func memoryStatistics() -> [String: Double] {
        guard let stats = JSGetMemoryUsageStatistics(ref) else { return [:] }
        let value = JSValue(stats, in: self)
        var result: [String: Double] = [:]
        for key in (try? value.ownKeys()) ?? [] {
            if let number = value[key].numberValue { result[key] = number }
        }
        return result
    }

    // MARK: - Making values

    /// `undefined`.
    public var undefined: JSValue { JSValue(JSValueMakeUndefined(ref), in: self) }
    /// `null`.
    public var null: JSValue { JSValue(JSValueMakeNull(ref), in: self) }

    /// A boolean value.
    public func boolean(_ value: Bool) -> JSValue { JSValue(JSValueMakeBoolean(ref, value), in: self) }
    /// A number value.
    public func number(_ value: Double) -> JSValue { JSValue(JSValueMakeNumber(ref, value), in: self) }
    /// A string value.
    public func string(_ value: String) -> JSValue {
        withJSString(value) { JSValue(JSValueMakeString(ref, $0), in: self) }
    }

    /// A new empty object.
    public func object() -> JSValue { JSValue(JSObjectMake(ref, nil, nil), in: self) }

    /// A new array holding `elements`.
    /// - Throws: ``JSError`` if the array cannot be made.
    public func array(_ elements: [JSValue]) throws -> JSValue {
        let refs: [JSValueRef?] = elements.map { $0.ref }
        let made: JSObjectRef? = try trying { exception in
            refs.withUnsafeBufferPointer { JSObjectMakeArray(ref, elements.count, $0.baseAddress, exception) }
        }
        guard let made else { throw JSError(name: "TypeError", message: "could not make an array") }
        return JSValue(made, in: self)
    }

    /// Parses JSON text into a value.
    /// - Throws: ``JSError`` (SyntaxError) when `json` is not valid JSON.
    public func parseJSON(_ json: String) throws -> JSValue {
        let made: JSValueRef? = withJSString(json) { JSValueMakeFromJSONString(ref, $0) }
        guard let made else {
            throw JSError(name: "SyntaxError", message: "invalid JSON: \(json.prefix(60))")
        }
        return JSValue(made, in: self)
    }

    /// A new `Error` object with `message`.
    public func error(_ message: String, name: String? = nil) -> JSValue {
        let messageValue = string(message)
        var args: [JSValueRef?] = [messageValue.ref]
        let made: JSObjectRef? = args.withUnsafeMutableBufferPointer { JSObjectMakeError(ref, 1, $0.baseAddress, nil) }
        guard let made else { return messageValue }
        let value = JSValue(made, in: self)
        if let name { try? value.set("name", string(name)) }
        return value
    }

    /// Converts a Swift value (nil, Bool, numbers, String, arrays, string-keyed dictionaries,
    /// ``JSValue``) into a JavaScript value.
    /// - Throws: ``JSError`` for a value that has no JavaScript counterpart.
    public func value(_ swift: Any?) throws -> JSValue {
        switch swift {
        case nil: return null
        case let v as JSValue: return v
        case let v as Bool: return boolean(v)
        case let v as Int: return number(Double(v))
        case let v as Int64: return number(Double(v))
        case let v as Double: return number(v)
        case let v as Float: return number(Double(v))
        case let v as String: return string(v)
        case let v as [Any?]: return try array(v.map { try value($0) })
        case let v as [String: Any?]:
            let object = object()
            for key in v.keys.sorted() { try object.set(key, try value(v[key] ?? nil)) }
            return object
        default:
            throw JSError(name: "TypeError", message: "cannot convert Swift value of type \(swift.map { "\(type(of: $0))" } ?? "nil") to JavaScript")
        }
    }

    // MARK: - Exceptions

    /// Calls `body` with the reason of every promise of this realm that is rejected with no
    /// handler once the microtask queue is empty (JavaScriptCore's unhandled-rejection callback,
    /// the one WebKit's console reports from). `body` must not hold this realm or its values.
    ///
    /// The global object keeps the callback through a strong handle, which is a root of the
    /// collector: a callback made in this realm would keep the realm alive for as long as the
    /// group lives (one leaked realm per world in a group that outlives its pages). So the
    /// callback is a function of `home`, a realm of the same group that does not hold this one
    /// (the engine realm); it is released with this realm.
    public func onUnhandledRejection(madeIn home: JSContext, _ body: @escaping (JSValue) -> Void) throws {
        precondition(home.group === group, "the callback's realm must be of the same group")
        let function = home.function("unhandledRejection", length: 2) { call in
            body(call.argument(1))
            return nil
        }
        guard let object = function.objectRef else { return }
        _ = try trying { JSGlobalContextSetUnhandledRejectionCallback(ref, object, $0) }
    }

    /// Runs a C API call that reports failure through an exception out-parameter and turns a
    /// thrown JavaScript value into a ``JSError``.
    /// - Throws: ``JSError`` when the call set the exception.
    public func trying<R>(_ body: (UnsafeMutablePointer<JSValueRef?>) throws -> R) throws -> R {
        // Counts the host's entries into JavaScript on this thread (ScriptWatchdog's per-call limit
        // starts at an outermost one).
        HostEntry.begin()
        defer { HostEntry.end() }
        var exception: JSValueRef?
        let result = try body(&exception)
        if let exception {
            throw JSError(thrown: JSValue(exception, in: self))
        }
        return result
    }
}
