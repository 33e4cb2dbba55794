import WebRuntime

/// A long-lived connection made by `runtime.connect` or `tabs.connect`: the end that opened it
/// and the ends that accepted it in `runtime.onConnect`; by `runtime.connectNative`, to the
/// native app; or by a web page's `runtime.connect(extensionId)`, accepted in
/// `runtime.onConnectExternal`.
final class PortChannel {
    let id: Int
    let name: String
    /// The context that called connect (nil when a web page did: `page`).
    let opener: ExtensionContext?
    /// The web page end, for a port a page opened (externally_connectable).
    let page: PagePortEnd?
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
        self.page = nil
    }

    init(id: Int, name: String, page: PagePortEnd) {
        self.id = id
        self.name = name
        self.opener = nil
        self.page = page
    }

    /// Where the opening end is, as traces name it.
    var openerLocation: String { opener?.location ?? page?.location ?? "page" }

    /// `port "name"#3`, as traces name the channel.
    var label: String { "port \(JSONText.string(name))#\(id)" }
}
