import Foundation
import JSKit
import WebRuntime

/// A simulated Safari (or Chromium): tabs, installed extensions, per-site permissions and the
/// `browser.*` APIs, over one ``WebSession`` and its virtual clock.
public final class Browser {
    /// Which browser's documented behaviour the APIs follow where Safari and Chromium differ.
    public enum Profile: String, Sendable, CaseIterable {
        case safari
        case chromium

        /// What an extension may do on a site nobody has decided on. Safari asks first (an
        /// extension runs on a site only once the user allows it there); Chrome grants the host
        /// permissions a Manifest V3 extension requests when it is installed (the user may
        /// restrict them later), so its content scripts run where they match.
        public var defaultSitePermission: SitePermission {
            switch self {
            case .safari: return .notAsked
            case .chromium: return .always
            }
        }
    }

    /// Options fixed when the browser is made.
    public struct Options: Sendable {
        /// Safari by default.
        public var profile: Profile = .safari
        /// The permission of sites nobody has decided on; nil: the profile's default
        /// (``Profile/defaultSitePermission``).
        public var defaultSitePermission: SitePermission?
        /// Gives every extension context `browser.test` (WebKit's test API, which browsers expose
        /// only in test builds): for extensions under test, never for a scenario's ADV.
        public var testAPI = false
        /// What the chromium profile's `chrome.test.getConfig()` gives: a JSON object (Chromium's
        /// browser tests set it from C++; here the runner does).
        public var testConfigJSON = "{}"
        /// Options of the underlying session (epoch, seed, script time limit).
        public var session = WebSession.Options()
        /// Makes default options.
        public init() {}
    }

    /// The JavaScript machinery and virtual clock.
    public let session: WebSession
    /// The options the browser was made with.
    public let options: Options
    /// Open tabs, in order of creation.
    public internal(set) var tabs: [Tab] = []
    /// Installed extensions, in order of installation.
    public internal(set) var extensions: [ExtensionHost] = []
    /// Answers every load: URL in, body out (nil: nothing there). Navigations, scripts and
    /// fetches all read it.
    public var pageSource: (String) -> String? = { _ in nil }
    /// Response headers a URL is served with beyond its `Content-Type` (a scenario's
    /// `responseHeaders`); header rules may change them.
    public var responseHeaderSource: (String) -> [(name: String, value: String)] = { _ in [] }

    var contexts: [Int: ExtensionContext] = [:] {
        didSet { contextOrder = nil }
    }
    /// `contexts`' ids in creation order, kept until `contexts` changes (every message asks).
    var contextOrder: [Int]?
    /// Message deliveries waiting for receivers' answers, by the token their receiver holds.
    var pendingAnswers: [Int: (delivery: MessageDelivery, receiver: ExtensionContext)] = [:]
    var nextMessageToken = 1
    var nextContextID = 1
    var nextTabID = 1
    /// The last tab group id given (Chrome's tabs.group; ids are counted from 1).
    var nextGroupID = 0
    /// Open windows, in order of opening, and the one in front.
    public internal(set) var windows: [BrowserWindow] = []
    var focusedWindowID: Int?
    var nextWindowID = 1
    /// The last webRequest requestId given.
    var nextRequestID = 0
    /// How many tabs extensions have opened (Tab.openedOrder).
    var extensionOpenedTabs = 0
    var sitePermissions: [String: SitePermission] = [:]
    var pageTabs: [Int: Int] = [:]
    /// The frame each page is the document of (tabs only; not background or popup pages).
    var pageFrames: [Int: Frame] = [:]
    /// Frames whose documents are being parsed, innermost last (parser-inserted scripts load
    /// on behalf of the last).
    var loadingFrames: [Frame] = []
    var nextFrameID = 1
    /// The extension page (popup) being parsed, whose scripts load from its bundle.
    var loadingExtensionPage: String?
    /// Open popups, by extension id.
    var popups: [String: Page] = [:]
    var ports: [Int: PortChannel] = [:]
    var nextPortID = 1
    package let apiModule: JSValue

    /// Makes a browser with no tabs and no extensions, in `engine` when given (a warm one from
    /// an ``EnginePool``) or a new one.
    /// - Throws: as ``WebSession/init(options:engine:)``.
    public init(options: Options = Options(), engine: SessionEngine? = nil) throws {
        self.options = options
        session = try WebSession(options: options.session, engine: engine)
        // The API module lives in the engine realm as long as the engine: a browser made in a
        // warm engine finds it there and points its host functions at itself.
        let made: APIModule
        if let kept = session.engine.attachments[APIModule.key] as? APIModule {
            made = kept
        } else {
            made = try APIModule(realm: session.realm.context)
            session.engine.attachments[APIModule.key] = made
        }
        apiModule = made.module
        made.browser = self
        session.locationName = { [unowned self] page, world in self.locationName(page: page, world: world) }
        session.resourceLoader = { [unowned self] url in
            // A parser-inserted <script src>: decided by the rules first, like every request.
            let frame = self.loadingFrames.last
            return self.load(url, type: .script, frame: frame, documentURL: frame?.effectiveURL ?? self.loadingExtensionPage)
        }
        session.stylesheetLoader = { [unowned self] url in
            // The request itself is decided and traced with the page's other subresources; here
            // only its body is served, unless a rule blocks it.
            let frame = self.loadingFrames.last
            if ExtensionBundle.schemeLength(of: url) != nil {
                guard let text = self.extensionResource(url, for: frame?.effectiveURL ?? self.loadingExtensionPage ?? "") else { return nil }
                // An extension's stylesheets are served with `__MSG_name__` replaced, in both
                // browsers (WebKit's test CSSLocalization; Chromium's extension_localization_throttle.cc).
                guard let host = self.extensionHost(owning: url) else { return text }
                return host.bundle.localization.localizeStyleSheet(text, extensionID: host.id)
            }
            let request = NetworkRequest(url: url, type: .stylesheet, tabID: frame?.tab.id ?? -1, documentURL: frame?.effectiveURL,
                                         frameChain: frame?.chain ?? [], frameID: frame?.id ?? 0)
            let carried = self.carry(request, record: false)
            return carried.blocked ? nil : self.served(carried.url, for: frame?.effectiveURL ?? "")
        }
        session.fetchHandler = { [unowned self] page, url, method, headers in
            let outcome = self.request(from: page, url: url, type: .xmlhttprequest, method: method, headers: Self.headerPairs(headers))
            return outcome.blocked ? .blocked : .response(status: outcome.status, body: outcome.body, url: outcome.url,
                                                          headers: Self.headerText(outcome.headers), redirected: outcome.redirected)
        }
        session.contentWorldCreated = { [unowned self] world, page in try self.attachContentWorld(world, page: page) }
        try installNetworkHooks()
        try installStorageHook()
        try installCookieHook()
        installHistoryHooks()
    }

    /// The trace of everything the browser and its pages did.
    public var trace: TraceRecorder { session.trace }
    /// The virtual clock.
    public var loop: EventLoop { session.loop }
    /// The active tab, if any.
    /// The active tab of the window in front.
    public var activeTab: Tab? {
        let front = focusedWindow?.id
        return tabs.first { $0.isActive && $0.windowID == front } ?? tabs.first { $0.isActive }
    }

    /// The installed extension with `id`.
    public func extensionHost(_ id: String) -> ExtensionHost? { extensions.first { $0.id == id } }

    // MARK: - Site permissions

    /// Sets the permission every extension has on `host` (a hostname, or `*` for the default).
    public func setSitePermission(_ permission: SitePermission, for host: String) {
        sitePermissions[host.lowercased()] = permission
        trace.record(.navigation, at: "browser", "site permission \(host.lowercased()) = \(permission.rawValue)")
    }

    /// The permission in force for `url`'s host.
    public func sitePermission(for url: String) -> SitePermission {
        guard let host = URLParts.of(url)?.host else { return .denied }
        return sitePermissions[host] ?? sitePermissions["*"] ?? options.defaultSitePermission ?? options.profile.defaultSitePermission
    }

    /// True when `host`'s extension may run scripts on, and read details of, `url` in `tab`.
    func mayAccess(_ host: ExtensionHost, url: String, tab: Tab?) -> Bool {
        guard let scheme = URLParts.of(url)?.scheme, scheme == "http" || scheme == "https" else { return false }
        // Private browsing has its own switch in Safari; this runtime does not allow it by default.
        if tab?.isPrivate == true, !allowInPrivate.contains(host.id) { return false }
        // A host pattern granted at run time (permissions.request) is access, as the user's answer.
        if host.grantedOrigins.contains(where: { $0.matches(url) }) { return true }
        let manifest = host.bundle.manifest
        let requested = manifest.hostPermissions.contains { $0.matches(url) }
            || manifest.contentScripts.contains { $0.applies(to: url) }
        return requested && sitePermission(for: url).grants
    }

    /// Tabs where the user invoked the extension (activeTab is granted until navigation).
    public var activeTabGrants: Set<Int> = []
    /// True while a scenario's trusted user input is being handled (quota exemptions).
    public var inUserGesture = false
    /// Unload a non-persistent background after 30 s without an event, as Safari does (see
    /// ``scheduleIdleUnload(of:)``). Off by default: a scenario turns it on.
    public var unloadsIdleBackgrounds = false
    /// What extensions reported through `browser.test`, in order (with ``Options/testAPI``).
    public internal(set) var testRecords: [TestRecord] = []
    /// A getMatchedRules quota imposed on the Safari profile (Safari itself has none).
    public var feedbackQuota: (calls: Int, intervalMs: Double)?

    /// Answers an extension's permission prompt (permissions.request): the extension, the API
    /// permissions and the host patterns it asks for; true grants them all. Nil: the prompt is
    /// declined, as when no one answers it.
    public var permissionPrompt: ((ExtensionHost, [String], [String]) -> Bool)?

    /// Extensions allowed in private browsing.
    public var allowInPrivate: Set<String> = []

    // MARK: - Trace locations

    func locationName(page: Page, world: String) -> String {
        let suffix = extensions.count > 1 ? ":" : ""
        if let host = extensions.first(where: { $0.backgroundPage === page }) {
            return "background" + (suffix.isEmpty ? "" : suffix + host.bundle.manifest.name)
        }
        if let (id, _) = popups.first(where: { $0.value === page }), let host = extensionHost(id) {
            return "popup" + (suffix.isEmpty ? "" : suffix + host.bundle.manifest.name)
        }
        var tab = pageTabs[page.id].map { "tab\($0)" } ?? "page\(page.id)"
        if let frame = pageFrames[page.id], frame.id != 0 { tab += "/frame\(frame.id)" }
        let worldName = world.hasPrefix("content:") ? "content" : world
        return "\(tab)/\(worldName)"
    }
}

/// A browser operation that cannot be carried out.
public struct BrowserError: Error, CustomStringConvertible {
    /// What went wrong.
    public let message: String
    /// Makes an error.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// browser-api.js and canonical.js, instantiated once per engine, and the browser their host
/// functions serve now. Host functions live in the JavaScript heap, which outlasts a browser
/// while someone still holds one of its pages or values: they reach the browser through this,
/// weakly, and say "Extension context invalidated." once it is gone.
final class APIModule {
    static let key = "browser-api"
    let module: JSValue
    weak var browser: Browser?

    init(realm: JSContext) throws {
        let factory = try realm.evaluate(hostScript: try SourceCache.shared.resource("browser-api.js", in: .module), sourceURL: "adv-runtime:///browser-api.js")
        let hostObject = realm.object()
        let tests = try realm.evaluate(hostScript: try SourceCache.shared.resource("test-api.js", in: .module), sourceURL: "adv-runtime:///test-api.js")
        let tabChecks = try realm.evaluate(hostScript: try SourceCache.shared.resource("tabs-arguments.js", in: .module), sourceURL: "adv-runtime:///tabs-arguments.js")
        module = try factory.call([hostObject, try tests.call([hostObject]), try tabChecks.call()])
        // Canonical JSON of values from any realm, for callers outside a context (the scenario
        // runner's expectations); contexts use their own (see makeContext).
        try module.set("canonical", try realm.evaluate(hostScript: try SourceCache.shared.resource("canonical.js", in: .module), sourceURL: "adv-runtime:///canonical.js").call())
        weak let bridge = self
        func define(_ name: String, _ length: Int, _ body: @escaping (Browser, HostCall) throws -> JSValue?) throws {
            try hostObject.set(name, realm.function(name, length: length) { call in
                guard let browser = bridge?.browser else { throw Browser.contextInvalidated }
                return try body(browser, call)
            })
        }
        try define("apiCall", 4) { browser, call in try browser.handleAPICall(call) }
        try define("answerMessage", 3) { browser, call in browser.answerMessage(call); return nil }
        try Browser.installPortFunctions(define)
        try Browser.installTestFunctions(define)
        try Browser.installMenuFunctions(define)
        try define("isMatchPattern", 1) { _, call in
            call.context.boolean((try? MatchPattern(try call.argument(0).toString())) != nil)
        }
        try define("matchesPattern", 2) { _, call in
            call.context.boolean((try? MatchPattern(try call.argument(0).toString()))?.matches(try call.argument(1).toString()) == true)
        }
        try Browser.installI18nFunctions(define)
    }
}
