import WebRuntime

/// A long-lived connection made by `runtime.connect` or `tabs.connect`: the end that opened it
/// and the ends that accepted it in `runtime.onConnect`; or by `runtime.connectNative`, to the
/// native app.
final class PortChannel {
    let id: Int
    let name: String
    /// The context that called connect.
    let opener: ExtensionContext
    /// Contexts that accepted the connection and have not disconnected, in order.
    var receivers: [ExtensionContext] = []
    /// False once the opener disconnected or died.
    var openerConnected = true
    /// For runtime.connectNative: the native application the port talks to (no receivers).
    var nativeApplication: String?

    init(id: Int, name: String, opener: ExtensionContext) {
        self.id = id
        self.name = name
        self.opener = opener
    }

    /// `port "name"#3`, as traces name the channel.
    var label: String { "port \(JSONText.string(name))#\(id)" }
}
