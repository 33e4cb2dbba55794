import JSKit
import WebRuntime

/// What a `browser.*` method answers: settled into the caller's realm as a promise.
enum APIResult {
    /// Fulfil with the value of this JSON text (already canonical: sorted keys).
    case json(String)
    /// Fulfil with the value of `value` (a message as its sender wrote it, keys in their own
    /// order, as Safari's structured clone keeps them); the trace shows `trace` (canonical).
    case message(trace: String, value: String)
    /// Fulfil with an object handed over as it is (a window of the same process, as
    /// runtime.getBackgroundPage's); the trace shows `trace`.
    case object(trace: String, value: JSValue)
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
    /// For messages (`runtime.sendMessage`, `tabs.sendMessage`): the arguments as their sender
    /// wrote them, keys in their own order, which is what the receiver gets; the canonical text
    /// above is for traces and fault plans.
    let wireArguments: [String?]
    let context: ExtensionContext

    /// `storage.local.set`.
    var name: String { "\(namespace).\(method)" }

    /// The argument at `index` as JSON text, nil when missing or undefined.
    func argument(_ index: Int) -> String? { index < arguments.count ? arguments[index] : nil }

    /// The argument at `index` as delivered to a message's receiver.
    func wireArgument(_ index: Int) -> String? { index < wireArguments.count ? wireArguments[index] : nil }
}
