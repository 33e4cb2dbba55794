import JSKit
import WebRuntime

/// One place an extension's JavaScript runs: its background, a content world in a tab, its
/// popup, or one of its pages in a tab. Each has its own `browser` object and listeners.
final class ExtensionContext {
    enum Kind: Equatable {
        case background
        case content(tabID: Int, frameID: Int)
        case popup
        /// An extension page in a tab or a frame (an options page, a page tabs.create opened).
        case tab(tabID: Int, frameID: Int)

        var isPrivileged: Bool { !isContent }
        var isContent: Bool { if case .content = self { return true } else { return false } }
    }

    let id: Int
    let kind: Kind
    unowned let host: ExtensionHost
    let world: World
    /// From browser-api.js: `{ browser, dispatch, dispatchMessage }`.
    let api: JSValue
    /// Canonical JSON of a value of this realm (JS/canonical.js), made in the realm when first
    /// needed: many contexts (a content world per page) only ever send messages, whose canonical
    /// text comes from their JSON (JSONText.canonical).
    var canonical: JSValue {
        get throws {
            if let made = canonicalFunction { return made }
            let made = try world.context.evaluate(hostScript: try SourceCache.shared.resource("canonical.js", in: .module), sourceURL: "adv-runtime:///canonical.js").call()
            canonicalFunction = made
            return made
        }
    }
    private var canonicalFunction: JSValue?
    /// Until when the context has transient user activation (a popup opened by a click).
    var activationExpiry: VirtualTime?
    /// False once the context's page is gone (navigation, suspension, closing).
    var isAlive: Bool { !(world.page?.isClosed ?? true) }

    init(id: Int, kind: Kind, host: ExtensionHost, world: World, api: JSValue) {
        self.id = id
        self.kind = kind
        self.host = host
        self.world = world
        self.api = api
    }

    /// How traces name the context: `background`, `popup`, or the content world's location.
    var location: String {
        switch kind {
        case .background: return "background"
        case .popup: return "popup"
        case .tab:
            guard let page = world.page, let session = page.session else { return "extension page" }
            return session.locationName(page, world.name)
        case .content:
            guard let page = world.page, let session = page.session else { return "content" }
            return session.locationName(page, world.name)
        }
    }
}
