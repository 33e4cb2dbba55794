import CJavaScriptCore
import Foundation

/// The private data of an object made by ``JSContext/lazyProperties(className:names:resolve:)``:
/// the names it answers for and those already answered.
final class LazyPropertiesBox {
    let names: Set<String>
    var answered: Set<String> = []
    init(names: Set<String>) { self.names = names }
    func pending(_ name: String) -> Bool { names.contains(name) && !answered.contains(name) }
}

/// Where an object made by ``JSContext/lazyProperties(className:names:resolve:)`` keeps its
/// `resolve` function (a private property: no script can name it).
private let resolverKey: JSStringRef = JSStringCreateWithUTF8CString("resolve")

private func lazyBox(of object: JSObjectRef?) -> LazyPropertiesBox? {
    guard let object, let data = JSObjectGetPrivate(object) else { return nil }
    return Unmanaged<LazyPropertiesBox>.fromOpaque(data).takeUnretainedValue()
}

/// The JSClasses of lazy-property objects, one per class name, made once per process and never
/// released (as ``GlobalClasses``: a name describes a shape, not per-object data).
final class LazyPropertiesClasses: @unchecked Sendable {
    static let shared = LazyPropertiesClasses()
    private let lock = NSLock()
    private var classes: [String: JSClassRef] = [:]

    func named(_ name: String) -> JSClassRef? {
        lock.lock()
        defer { lock.unlock() }
        if let existing = classes[name] { return existing }
        guard let cName = strdup(name) else { return nil }
        var definition = kJSClassDefinitionEmpty
        definition.className = UnsafePointer(cName)
        definition.finalize = { object in
            guard let object, let data = JSObjectGetPrivate(object) else { return }
            Unmanaged<LazyPropertiesBox>.fromOpaque(data).release()
        }
        // `in` asks without making the value.
        definition.hasProperty = { _, object, name in
            guard let name, let box = lazyBox(of: object) else { return false }
            return box.pending(swiftString(name))
        }
        definition.getProperty = { ctx, object, name, exception in
            guard let ctx, let object, let name, let box = lazyBox(of: object) else { return nil }
            let key = swiftString(name)
            guard box.pending(key) else { return nil }
            guard let resolve = JSObjectGetPrivateProperty(ctx, object, resolverKey),
                let function = JSValueToObject(ctx, resolve, nil)
            else { return nil }
            // Answered once: `resolve` puts the value where later reads find it first, and a
            // script that then deletes it deletes it for good.
            box.answered.insert(key)
            var argument: JSValueRef? = JSValueMakeString(ctx, name)
            var thrown: JSValueRef?
            let value = JSObjectCallAsFunction(ctx, function, nil, 1, &argument, &thrown)
            if let thrown {
                box.answered.remove(key)
                exception?.pointee = thrown
                return nil
            }
            return value
        }
        guard let made = JSClassCreate(&definition) else { return nil }
        classes[name] = made
        return made
    }
}

extension JSContext {
    /// An object that answers for each of `names` until the first read of it, by calling
    /// `resolve(name)`: the way WebKit reifies a static property table's entries only when one is
    /// first looked up. Put in a prototype chain in front of the object `resolve` defines the
    /// value on, it makes a long list of members cost nothing until a script names one.
    ///
    /// - `name in object` is true for a name not yet read, without calling `resolve`.
    /// - A name is answered once: after `resolve` has run for it (and not thrown), the object
    ///   no longer has it. The value it returns is what that first read sees.
    /// - `resolve` is kept by the object as a private property, traced by the collector: it
    ///   may refer to the object (or to anything that refers to it) without keeping the group alive.
    /// - Only reads and `in` see the names: the object lists none of them as its own keys.
    ///
    /// - Parameters:
    ///   - className: what `Object.prototype.toString` says of the object.
    ///   - names: the names it answers for.
    ///   - resolve: a function of this group, called with the name.
    public func lazyProperties(className: String, names: Set<String>, resolve: JSValue) -> JSValue {
        guard let jsClass = LazyPropertiesClasses.shared.named(className) else { return undefined }
        let box = Unmanaged.passRetained(LazyPropertiesBox(names: names))
        guard let object = JSObjectMake(ref, jsClass, box.toOpaque()) else {
            box.release()
            return undefined
        }
        _ = JSObjectSetPrivateProperty(ref, object, resolverKey, resolve.ref)
        return JSValue(object, in: self)
    }
}
