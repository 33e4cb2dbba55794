import CJavaScriptCore

/// A JavaScript promise whose settlement is decided in Swift.
///
/// Host APIs that answer later (a storage read, a message reply) make a deferred, hand its
/// ``promise`` to script, and settle it when the event loop reaches the answer.
public final class JSDeferred {
    /// The promise handed to script.
    public let promise: JSValue
    private let resolveFunction: JSValue
    private let rejectFunction: JSValue
    /// True once ``resolve(_:)`` or ``reject(_:)`` has been called.
    public private(set) var isSettled = false

    /// Makes a pending promise in `context`.
    /// - Throws: ``JSError`` if the engine cannot make one.
    public init(in context: JSContext) throws {
        var resolve: JSObjectRef?
        var reject: JSObjectRef?
        let promise: JSObjectRef? = try context.trying { JSObjectMakeDeferredPromise(context.ref, &resolve, &reject, $0) }
        guard let promise, let resolve, let reject else {
            throw JSError(name: "TypeError", message: "could not make a promise")
        }
        self.promise = JSValue(promise, in: context)
        resolveFunction = JSValue(resolve, in: context)
        rejectFunction = JSValue(reject, in: context)
    }

    /// Fulfils the promise (or adopts `value` if it is a thenable). Later calls are ignored, as
    /// for a promise's own resolving functions.
    public func resolve(_ value: JSValue) {
        guard !isSettled else { return }
        isSettled = true
        _ = try? resolveFunction.call([value])
    }

    /// Rejects the promise with `reason`.
    public func reject(_ reason: JSValue) {
        guard !isSettled else { return }
        isSettled = true
        _ = try? rejectFunction.call([reason])
    }

    /// Rejects the promise with a new `Error` carrying `message`.
    public func reject(message: String) {
        reject(promise.context.error(message))
    }
}

/// The state of a promise as observed from Swift through `then`.
public enum PromiseOutcome {
    /// Not settled yet.
    case pending
    /// Fulfilled with a value.
    case fulfilled(JSValue)
    /// Rejected with a reason.
    case rejected(JSValue)
}

/// Watches a JavaScript promise (or any thenable, or a plain value) from Swift.
///
/// The outcome becomes known when the promise's reactions run, in a microtask checkpoint: run the
/// event loop (or any script call) to let that happen.
public final class PromiseObserver {
    /// What is known so far.
    public private(set) var outcome: PromiseOutcome = .pending

    /// Starts observing `value` via `Promise.resolve(value).then(...)` in its realm.
    /// - Throws: ``JSError`` when `then` cannot be attached.
    public init(_ value: JSValue) throws {
        let context = value.context
        let promiseConstructor = context.globalObject["Promise"]
        let promise = try promiseConstructor.invoke("resolve", [value])
        let onFulfilled = context.function("onFulfilled", length: 1) { [weak self] call in
            self?.outcome = .fulfilled(call.argument(0))
            return nil
        }
        let onRejected = context.function("onRejected", length: 1) { [weak self] call in
            self?.outcome = .rejected(call.argument(0))
            return nil
        }
        try promise.invoke("then", [onFulfilled, onRejected])
    }

    /// True once the promise has settled.
    public var isSettled: Bool {
        if case .pending = outcome { return false }
        return true
    }
}
