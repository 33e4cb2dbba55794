/// What a `browser.*` method answers: settled into the caller's realm as a promise.
enum APIResult {
    /// Fulfil with the value of this JSON text (already canonical: sorted keys).
    case json(String)
    /// Fulfil with `undefined`.
    case undefined
    /// Reject with `new Error(message)`.
    case error(String)
    /// The answer comes later: the handler settles it through the given completion.
    case later((@escaping (APIResult) -> Void) -> Void)
}

/// One `browser.*` call as Swift sees it.
struct APICall {
    let namespace: String
    let method: String
    /// Arguments as canonical JSON text (`undefined` arguments are nil).
    let arguments: [String?]
    let context: ExtensionContext

    /// `storage.local.set`.
    var name: String { "\(namespace).\(method)" }

    /// The argument at `index` as JSON text, nil when missing or undefined.
    func argument(_ index: Int) -> String? { index < arguments.count ? arguments[index] : nil }
}
