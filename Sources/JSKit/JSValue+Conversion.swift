import CJavaScriptCore

extension JSValue {
    /// JavaScript truthiness of the value.
    public var toBool: Bool { JSValueToBoolean(context.ref, ref) }

    /// The value converted with `Number(value)`.
    /// - Throws: ``JSError`` when conversion throws (a symbol, or a throwing `valueOf`).
    public func toNumber() throws -> Double {
        try context.trying { JSValueToNumber(context.ref, ref, $0) }
    }

    /// The value converted with `String(value)`.
    /// - Throws: ``JSError`` when conversion throws (a symbol, or a throwing `toString`).
    public func toString() throws -> String {
        let copied: JSStringRef? = try context.trying { JSValueToStringCopy(context.ref, ref, $0) }
        guard let copied else { return "" }
        return consumeJSString(copied)
    }

    /// The string if this is a string primitive, nil otherwise.
    public var stringValue: String? {
        guard isString else { return nil }
        return try? toString()
    }

    /// The number if this is a number primitive, nil otherwise.
    public var numberValue: Double? {
        guard isNumber else { return nil }
        return JSValueToNumber(context.ref, ref, nil)
    }

    /// The boolean if this is a boolean primitive, nil otherwise.
    public var boolValue: Bool? {
        guard isBoolean else { return nil }
        return JSValueToBoolean(context.ref, ref)
    }

    /// `JSON.stringify(value, null, indent)`; nil when the value has no JSON form (undefined, a function).
    /// - Throws: ``JSError`` for a cycle or a throwing `toJSON`.
    public func toJSON(indent: Int = 0) throws -> String? {
        let copied: JSStringRef? = try context.trying {
            JSValueCreateJSONString(context.ref, ref, UInt32(clamping: indent), $0)
        }
        guard let copied else { return nil }
        return consumeJSString(copied)
    }

    /// Converts the value to Swift: nil (undefined/null), Bool, Double, String, [Any?] for arrays,
    /// [String: Any?] for other objects (own enumerable string keys). Functions and symbols become
    /// their `String()` form.
    /// - Throws: ``JSError`` when reading a property throws, or for a cyclic structure.
    public func toSwift() throws -> Any? {
        var depth = 0
        return try toSwift(depth: &depth)
    }

    private func toSwift(depth: inout Int) throws -> Any? {
        if isNullish { return nil }
        if let bool = boolValue { return bool }
        if let number = numberValue { return number }
        if let string = stringValue { return string }
        if isSymbol || isFunction { return try toString() }
        depth += 1
        defer { depth -= 1 }
        if depth > 64 {
            throw JSError(name: "RangeError", message: "value nests deeper than 64 levels (a cycle?)")
        }
        if isArray {
            let length = Int(try self["length"].toNumber())
            var result: [Any?] = []
            result.reserveCapacity(length)
            for index in 0..<length { result.append(try self[index].toSwift(depth: &depth)) }
            return result
        }
        var result: [String: Any?] = [:]
        for key in try ownKeys() { result[key] = try self[key].toSwift(depth: &depth) }
        return result
    }
}
