import JSKit

extension Page {
    /// The first element matching `selector` (document order).
    /// - Throws: ``ElementNotFoundError`` when nothing matches, ``JSError`` for an invalid selector.
    public func element(_ selector: String) throws -> JSValue {
        let found = try document.invoke("querySelector", [handle.context.string(selector)])
        guard found.isObject else { throw ElementNotFoundError(selector: selector, url: url) }
        return found
    }

    /// Calls `function` of the engine realm's web-platform layer `layer` (see JS/<layer>.js).
    /// - Throws: ``JSError`` from the layer.
    @discardableResult
    func callWeb(_ layer: String, _ function: String, _ arguments: [Any?]) throws -> JSValue {
        guard let session, !isClosed else {
            throw JSError(name: "InvalidStateError", message: "page \(url) is closed")
        }
        let context = session.realm.context
        let object = try session.realm.web.property(layer)
        return try object.invoke(function, try arguments.map { try context.value($0) })
    }
}
