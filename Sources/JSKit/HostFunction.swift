import CJavaScriptCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One call of a host function: the calling realm, `this`, and the arguments.
public struct HostCall {
    /// The realm that made the call.
    public let context: JSContext
    /// The call's `this` value.
    public let this: JSValue
    /// The arguments as passed.
    public let arguments: [JSValue]

    /// The argument at `index`, or `undefined` when fewer were passed.
    public func argument(_ index: Int) -> JSValue {
        index < arguments.count ? arguments[index] : context.undefined
    }
}

/// The Swift body of a host function. Returning nil returns `undefined`; a thrown Swift error
/// becomes a JavaScript exception (a ``JSError`` rethrows its original value).
public typealias HostFunctionBody = (HostCall) throws -> JSValue?

/// The private data of a host function object: the Swift closure, released in `finalize`.
final class HostFunctionBox {
    let body: HostFunctionBody
    /// The realm the function was made in; weak so the function does not keep its realm alive.
    weak var home: JSContext?
    init(body: @escaping HostFunctionBody, home: JSContext) {
        self.body = body
        self.home = home
    }
}

// MARK: - The JSClass for host functions

private let hostFunctionClass: JSClassRef? = {
    var definition = kJSClassDefinitionEmpty
    definition.className = hostFunctionClassName
    definition.finalize = { object in
        guard let data = JSObjectGetPrivate(object) else { return }
        Unmanaged<HostFunctionBox>.fromOpaque(data).release()
    }
    definition.callAsFunction = { ctx, function, thisObject, count, arguments, exception in
        guard let ctx, let function, let data = JSObjectGetPrivate(function) else { return nil }
        let box = Unmanaged<HostFunctionBox>.fromOpaque(data).takeUnretainedValue()
        return invokeHost(box, ctx: ctx, thisObject: thisObject, count: count, arguments: arguments, exception: exception)
    }
    return JSClassCreate(&definition)
}()

private let hostFunctionClassName: UnsafePointer<CChar> = {
    let name = "HostFunction"
    let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: name.utf8.count + 1)
    pointer.initialize(from: name.utf8CString.map { $0 }, count: name.utf8.count + 1)
    return UnsafePointer(pointer)
}()

@inline(__always)
func invokeHost(
    _ box: HostFunctionBox, ctx: JSContextRef, thisObject: JSObjectRef?, count: Int,
    arguments: UnsafePointer<JSValueRef?>?, exception: UnsafeMutablePointer<JSValueRef?>?
) -> JSValueRef? {
    // Reuse the home realm's wrapper when the call comes from it (the common case); wrap the
    // caller's realm otherwise.
    let context: JSContext
    if let home = box.home, home.ref == JSContextGetGlobalContext(ctx) {
        context = home
    } else {
        context = JSContext(borrowing: ctx)
    }
    var args: [JSValue] = []
    args.reserveCapacity(count)
    for index in 0..<count {
        if let value = arguments?[index] { args.append(JSValue(value, in: context)) }
    }
    let this = thisObject.map { JSValue($0, in: context) } ?? context.undefined
    HostCallDepth.enter()
    defer { HostCallDepth.leave() }
    do {
        let result = try box.body(HostCall(context: context, this: this, arguments: args))
        return result?.ref ?? JSValueMakeUndefined(ctx)
    } catch let error as JSError {
        exception?.pointee = error.jsValue(in: context).ref
    } catch {
        exception?.pointee = context.error(String(describing: error)).ref
    }
    return nil
}

extension JSContext {
    /// Makes a JavaScript function backed by a Swift closure. The closure lives as the function
    /// object's private data and is released when the object is garbage collected, or when its
    /// group goes (the last context released).
    ///
    /// The closure must not hold a ``JSContext`` or ``JSValue`` of the same group strongly, nor
    /// a Swift object that does: either keeps the group's virtual machine alive, so the function
    /// is never collected and the closure never released, and the whole heap of a finished
    /// session stays. Use `call.context` for the calling realm, and weak references or plain
    /// data (an id, a string) for the rest.
    ///
    /// The function inherits from `Function.prototype` (so `call`, `apply` and `bind` work) and
    /// has the given `name` and `length`.
    public func function(_ name: String, length: Int = 0, _ body: @escaping HostFunctionBody) -> JSValue {
        let box = HostFunctionBox(body: body, home: self)
        let object = JSObjectMake(ref, hostFunctionClass, Unmanaged.passRetained(box).toOpaque())
        guard let object else { return undefined }
        let value = JSValue(object, in: self)
        // Own `name` and `length` first: once Function.prototype (whose own are read-only) is the
        // prototype, a plain set of either would be refused.
        let attributes = JSPropertyAttributes(kJSPropertyAttributeReadOnly | kJSPropertyAttributeDontEnum)
        withJSString("name") { JSObjectSetProperty(ref, object, $0, string(name).ref, attributes, nil) }
        withJSString("length") { JSObjectSetProperty(ref, object, $0, number(Double(length)).ref, attributes, nil) }
        JSObjectSetPrototype(ref, object, functionPrototype)
        return value
    }

    /// `Function.prototype` of this realm.
    var functionPrototype: JSValueRef? {
        if let cached = functionPrototypeRef { return cached }
        let prototype = globalObject["Function"]["prototype"]
        guard prototype.isObject else { return nil }
        JSValueProtect(ref, prototype.ref)
        functionPrototypeRef = prototype.ref
        return prototype.ref
    }
}

/// How many host functions are running on this thread right now: non-zero means JavaScript is
/// on the stack below the Swift code asking (which must then not run other tasks, or scripts
/// would be re-entered).
public enum HostCallDepth {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { free($0) }
        return key
    }()

    private static var slot: UnsafeMutablePointer<Int> {
        if let existing = pthread_getspecific(key) { return existing.assumingMemoryBound(to: Int.self) }
        let made = malloc(MemoryLayout<Int>.size)!.bindMemory(to: Int.self, capacity: 1)
        made.pointee = 0
        pthread_setspecific(key, made)
        return made
    }

    /// The current depth on this thread.
    public static var current: Int { slot.pointee }
    static func enter() { slot.pointee += 1 }
    static func leave() { slot.pointee -= 1 }
}
