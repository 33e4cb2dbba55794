import CJavaScriptCore

extension JSValue {
    // MARK: - Properties

    /// The property `name`, `undefined` when absent or when this is not an object.
    public subscript(name: String) -> JSValue {
        (try? property(name)) ?? context.undefined
    }

    /// The element at `index`, `undefined` when absent.
    public subscript(index: Int) -> JSValue {
        guard let object = objectRef else { return context.undefined }
        let value: JSValueRef? = try? context.trying {
            JSObjectGetPropertyAtIndex(context.ref, object, UInt32(clamping: index), $0)
        }
        return JSValue(value ?? JSValueMakeUndefined(context.ref), in: context)
    }

    /// Reads the property `name`, running getters.
    /// - Throws: ``JSError`` when this is not an object or a getter throws.
    public func property(_ name: String) throws -> JSValue {
        let object = try requireObject("read property '\(name)' of")
        let value: JSValueRef? = try withJSString(name) { key in
            try context.trying { JSObjectGetProperty(context.ref, object, key, $0) }
        }
        return JSValue(value ?? JSValueMakeUndefined(context.ref), in: context)
    }

    /// Sets the property `name` (as an ordinary assignment).
    /// - Throws: ``JSError`` when this is not an object or a setter throws.
    public func set(_ name: String, _ value: JSValue) throws {
        let object = try requireObject("set property '\(name)' on")
        try withJSString(name) { key in
            try context.trying { JSObjectSetProperty(context.ref, object, key, value.ref, 0, $0) }
        }
    }

    /// Defines `name` as a read-only, non-enumerable, non-deletable property.
    /// - Throws: ``JSError`` when this is not an object.
    public func defineHidden(_ name: String, _ value: JSValue) throws {
        let object = try requireObject("define property '\(name)' on")
        let attributes = JSPropertyAttributes(kJSPropertyAttributeReadOnly | kJSPropertyAttributeDontEnum | kJSPropertyAttributeDontDelete)
        try withJSString(name) { key in
            try context.trying { JSObjectSetProperty(context.ref, object, key, value.ref, attributes, $0) }
        }
    }

    /// True when the object has the property `name` (own or inherited).
    public func hasProperty(_ name: String) -> Bool {
        guard let object = objectRef else { return false }
        return withJSString(name) { JSObjectHasProperty(context.ref, object, $0) }
    }

    /// Deletes the property `name`.
    /// - Throws: ``JSError`` when this is not an object or deletion throws in strict semantics.
    @discardableResult
    public func deleteProperty(_ name: String) throws -> Bool {
        let object = try requireObject("delete property '\(name)' of")
        return try withJSString(name) { key in
            try context.trying { JSObjectDeleteProperty(context.ref, object, key, $0) }
        }
    }

    /// The object's own enumerable string keys, in property order.
    /// - Throws: ``JSError`` when this is not an object.
    public func ownKeys() throws -> [String] {
        let object = try requireObject("list the keys of")
        let names = JSObjectCopyPropertyNames(context.ref, object)
        defer { JSPropertyNameArrayRelease(names) }
        let count = JSPropertyNameArrayGetCount(names)
        return (0..<count).map { swiftString(JSPropertyNameArrayGetNameAtIndex(names, $0)) }
    }

    // MARK: - Calls

    /// Calls the value as a function.
    /// - Throws: ``JSError`` when it is not a function or the call throws.
    @discardableResult
    public func call(_ arguments: [JSValue] = [], this: JSValue? = nil) throws -> JSValue {
        guard let function = objectRef, JSObjectIsFunction(context.ref, function) else {
            throw JSError(name: "TypeError", message: "value is not a function")
        }
        let refs: [JSValueRef?] = arguments.map { $0.ref }
        let result: JSValueRef? = try refs.withUnsafeBufferPointer { buffer in
            try context.trying {
                JSObjectCallAsFunction(context.ref, function, this?.objectRef, arguments.count, buffer.baseAddress, $0)
            }
        }
        return JSValue(result ?? JSValueMakeUndefined(context.ref), in: context)
    }

    /// Calls the method `name` with this value as `this`.
    /// - Throws: ``JSError`` when the property is not a function or the call throws.
    @discardableResult
    public func invoke(_ name: String, _ arguments: [JSValue] = []) throws -> JSValue {
        let method = try property(name)
        guard method.isFunction else {
            throw JSError(name: "TypeError", message: "'\(name)' is not a function")
        }
        return try method.call(arguments, this: self)
    }

    /// Calls the value as a constructor (`new value(...)`).
    /// - Throws: ``JSError`` when it is not a constructor or construction throws.
    public func construct(_ arguments: [JSValue] = []) throws -> JSValue {
        guard let constructor = objectRef, JSObjectIsConstructor(context.ref, constructor) else {
            throw JSError(name: "TypeError", message: "value is not a constructor")
        }
        let refs: [JSValueRef?] = arguments.map { $0.ref }
        let result: JSObjectRef? = try refs.withUnsafeBufferPointer { buffer in
            try context.trying {
                JSObjectCallAsConstructor(context.ref, constructor, arguments.count, buffer.baseAddress, $0)
            }
        }
        guard let result else { return context.undefined }
        return JSValue(result, in: context)
    }

    // MARK: - Prototype

    /// The object's prototype (`Object.getPrototypeOf`).
    public var prototype: JSValue {
        guard let object = objectRef else { return context.undefined }
        return JSValue(JSObjectGetPrototype(context.ref, object), in: context)
    }

    /// Replaces the object's prototype.
    public func setPrototype(_ prototype: JSValue) {
        guard let object = objectRef else { return }
        JSObjectSetPrototype(context.ref, object, prototype.ref)
    }

    // MARK: - Realm

    /// The realm the object was made in (for a function, the realm its code runs in); nil for a
    /// primitive.
    public var realm: JSContext? {
        guard let object = objectRef, let global = JSObjectGetGlobalContext(object) else { return nil }
        return JSContext(borrowing: global)
    }

    func requireObject(_ action: String) throws -> JSObjectRef {
        guard let object = objectRef else {
            throw JSError(name: "TypeError", message: "cannot \(action) \(typeOf == "object" ? "null" : typeOf)")
        }
        return object
    }
}
