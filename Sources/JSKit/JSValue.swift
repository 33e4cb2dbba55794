import CJavaScriptCore

/// A JavaScript value kept alive for as long as this Swift object lives.
///
/// The value is protected from garbage collection in `init` and unprotected in `deinit`; it
/// keeps its ``JSContext`` (and so the group) alive.
public final class JSValue {
    /// The realm the value was obtained in.
    public let context: JSContext
    /// The underlying value reference.
    public let ref: JSValueRef

    /// Wraps and protects `ref`.
    public init(_ ref: JSValueRef, in context: JSContext) {
        self.context = context
        self.ref = ref
        JSValueProtect(context.ref, ref)
    }

    deinit {
        JSValueUnprotect(context.ref, ref)
    }

    // MARK: - Type tests

    /// True for `undefined`.
    public var isUndefined: Bool { JSValueIsUndefined(context.ref, ref) }
    /// True for `null`.
    public var isNull: Bool { JSValueIsNull(context.ref, ref) }
    /// True for `null` or `undefined`.
    public var isNullish: Bool { isUndefined || isNull }
    /// True for a boolean primitive.
    public var isBoolean: Bool { JSValueIsBoolean(context.ref, ref) }
    /// True for a number primitive.
    public var isNumber: Bool { JSValueIsNumber(context.ref, ref) }
    /// True for a string primitive.
    public var isString: Bool { JSValueIsString(context.ref, ref) }
    /// True for a symbol.
    public var isSymbol: Bool { JSValueIsSymbol(context.ref, ref) }
    /// True for any object, functions and arrays included.
    public var isObject: Bool { JSValueIsObject(context.ref, ref) }
    /// True for an Array (from any realm).
    public var isArray: Bool { JSValueIsArray(context.ref, ref) }
    /// True for a callable object.
    public var isFunction: Bool {
        guard let object = objectRef else { return false }
        return JSObjectIsFunction(context.ref, object)
    }

    /// The value as an object reference, or nil for a primitive.
    public var objectRef: JSObjectRef? {
        guard isObject else { return nil }
        return JSValueToObject(context.ref, ref, nil)
    }

    /// `typeof` of the value.
    public var typeOf: String {
        switch JSValueGetType(context.ref, ref) {
        case kJSTypeUndefined: return "undefined"
        case kJSTypeNull: return "object"
        case kJSTypeBoolean: return "boolean"
        case kJSTypeNumber: return "number"
        case kJSTypeString: return "string"
        case kJSTypeSymbol: return "symbol"
        case kJSTypeBigInt: return "bigint"
        default: return isFunction ? "function" : "object"
        }
    }

    /// Strict equality (`===`).
    public func isStrictlyEqual(to other: JSValue) -> Bool {
        JSValueIsStrictEqual(context.ref, ref, other.ref)
    }

    /// `this instanceof constructor`.
    /// - Throws: ``JSError`` when `constructor` is not an object.
    public func isInstance(of constructor: JSValue) throws -> Bool {
        guard let ctor = constructor.objectRef else {
            throw JSError(name: "TypeError", message: "right-hand side of instanceof is not an object")
        }
        return try context.trying { JSValueIsInstanceOfConstructor(context.ref, ref, ctor, $0) }
    }
}
