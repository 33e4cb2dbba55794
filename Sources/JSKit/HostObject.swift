import CJavaScriptCore

/// The private data of a host object: a Swift payload plus optional property hooks, released
/// in `finalize`.
final class HostObjectBox {
    let payload: AnyObject?
    let getter: ((JSContext, String) throws -> JSValue?)?
    let setter: ((JSContext, String, JSValue) throws -> Bool)?
    init(payload: AnyObject?, getter: ((JSContext, String) throws -> JSValue?)?, setter: ((JSContext, String, JSValue) throws -> Bool)?) {
        self.payload = payload
        self.getter = getter
        self.setter = setter
    }
}

private let hostObjectClassName: UnsafePointer<CChar> = {
    let name = "HostObject"
    let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: name.utf8.count + 1)
    pointer.initialize(from: name.utf8CString.map { $0 }, count: name.utf8.count + 1)
    return UnsafePointer(pointer)
}()

private func box(of object: JSObjectRef?) -> HostObjectBox? {
    guard let object, let data = JSObjectGetPrivate(object) else { return nil }
    return Unmanaged<HostObjectBox>.fromOpaque(data).takeUnretainedValue()
}

private let hostObjectClass: JSClassRef? = {
    var definition = kJSClassDefinitionEmpty
    definition.className = hostObjectClassName
    definition.finalize = { object in
        guard let object, let data = JSObjectGetPrivate(object) else { return }
        Unmanaged<HostObjectBox>.fromOpaque(data).release()
    }
    definition.getProperty = { ctx, object, name, exception in
        guard let ctx, let name, let box = box(of: object), let getter = box.getter else { return nil }
        let context = JSContext(borrowing: ctx)
        do {
            // nil means "not handled here": JavaScriptCore then looks at ordinary properties.
            return try getter(context, swiftString(name))?.ref
        } catch let error as JSError {
            exception?.pointee = error.jsValue(in: context).ref
        } catch {
            exception?.pointee = context.error(String(describing: error)).ref
        }
        return nil
    }
    definition.setProperty = { ctx, object, name, value, exception in
        guard let ctx, let name, let value, let box = box(of: object), let setter = box.setter else { return false }
        let context = JSContext(borrowing: ctx)
        do {
            return try setter(context, swiftString(name), JSValue(value, in: context))
        } catch let error as JSError {
            exception?.pointee = error.jsValue(in: context).ref
        } catch {
            exception?.pointee = context.error(String(describing: error)).ref
        }
        return true
    }
    return JSClassCreate(&definition)
}()

extension JSContext {
    /// Makes an object that carries a Swift payload (retrievable with ``JSValue/hostPayload``) and,
    /// optionally, computes properties in Swift.
    ///
    /// - Parameters:
    ///   - payload: kept alive until the object is garbage collected, then released in `finalize`.
    ///     As for ``function(_:length:_:)``'s closure, neither it nor the hooks may hold a
    ///     context or value of this group strongly, or the group is never freed.
    ///   - get: answers a property read; return nil to fall back to the object's ordinary properties.
    ///   - set: handles a property write; return false to store it as an ordinary property.
    public func hostObject(
        payload: AnyObject? = nil,
        get: ((JSContext, String) throws -> JSValue?)? = nil,
        set: ((JSContext, String, JSValue) throws -> Bool)? = nil
    ) -> JSValue {
        let box = HostObjectBox(payload: payload, getter: get, setter: set)
        guard let object = JSObjectMake(ref, hostObjectClass, Unmanaged.passRetained(box).toOpaque()) else {
            Unmanaged.passUnretained(box).release()
            return undefined
        }
        return JSValue(object, in: self)
    }
}

extension JSValue {
    /// The Swift payload of an object made by ``JSContext/hostObject(payload:get:set:)``.
    public var hostPayload: AnyObject? {
        guard let object = objectRef, JSValueIsObjectOfClass(context.ref, ref, hostObjectClass) else { return nil }
        return box(of: object)?.payload
    }
}
