import JSKit
import WebRuntime

extension Browser {
    /// `i18n.getAcceptLanguages()`, the one i18n method that crosses to the browser (both
    /// browsers answer it asynchronously); getMessage and getUILanguage answer in the caller
    /// (browser-api.js `synchronous`, through ``installI18nFunctions(_:)``).
    func handleI18n(_ call: APICall) -> APIResult {
        switch call.method {
        case "getAcceptLanguages": return .json(JSONText.array(Localization.acceptLanguages.map(JSONText.string)))
        case "detectLanguage":
            // Chrome answers from its CLD3 model; the harness has none, and says so rather than guess.
            return .error("i18n.detectLanguage is not available in this runtime: it has no language detection model.")
        default: return .error("\(call.name) is not available")
        }
    }

    /// The host functions behind the synchronous i18n methods: `i18nMessage(contextId, name,
    /// substitutions, escapeLt)` (the substitutions already converted to strings as the
    /// profile's bindings convert them) answers the message or undefined; `uiLanguage()` the
    /// browser's fixed UI language.
    static func installI18nFunctions(_ define: (String, Int, @escaping (Browser, HostCall) throws -> JSValue?) throws -> Void) throws {
        try define("i18nMessage", 4) { browser, call in
            guard let context = browser.contexts[Int(try call.argument(0).toNumber())] else { throw Browser.contextInvalidated }
            let list = call.argument(2)
            let count = list.isObject ? Int(try list["length"].toNumber()) : 0
            let substitutions = try (0..<count).map { try list[$0].toString() }
            let host = context.host
            let message = host.bundle.localization.message(try call.argument(1).toString(), substitutions: substitutions,
                                                           escapeLessThan: call.argument(3).toBool, extensionID: host.id)
            return message.map { call.context.string($0) } ?? call.context.undefined
        }
        try define("uiLanguage", 0) { _, call in call.context.string(Localization.uiLanguage) }
    }
}
