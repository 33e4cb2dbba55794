import BlockerCore
import Foundation
import JSKit
import WebRuntime

extension Browser {
    /// Installs an extension and starts its background, which receives `runtime.onInstalled`
    /// with reason `install` once its scripts have run.
    /// A bundle loaded by the other profile's rules is loaded again by this browser's (its
    /// `_locales` and `__MSG_` are read differently).
    /// - Throws: ``ManifestError`` for an invalid rule file or what this browser refuses to load,
    ///   ``JSError`` when the runtime cannot start the background (script errors are reported on
    ///   the background page instead).
    /// - Parameter prepare: runs before the background starts (scenario setup: storage, rules).
    @discardableResult
    public func install(_ bundle: ExtensionBundle, prepare: ((ExtensionHost) throws -> Void)? = nil) throws -> ExtensionHost {
        var bundle = try bundle.loaded(for: options.profile)
        // Chrome names an extension by its own scheme and id shape.
        if options.profile == .chromium && bundle.urlScheme != ExtensionBundle.chromiumScheme { bundle = bundle.chromiumIdentity() }
        let host = try ExtensionHost(bundle: bundle, browser: self)
        try prepare?(host)
        extensions.append(host)
        trace.record(.navigation, at: "browser", "install \(bundle.manifest.name) \(bundle.manifest.version) as \(bundle.id)")
        // What Safari records as the extension's errors and loads it anyway, e.g.
        // `warning: Sample: default_locale: Unable to find ... (localization is off)`.
        for warning in bundle.localization.warnings {
            trace.record(.navigation, at: "browser", "warning: \(bundle.manifest.name): \(warning)")
        }
        for item in bundle.manifest.unmodelled {
            trace.record(.navigation, at: "browser", "warning: \(bundle.manifest.name): \(item) is not modelled by this runtime (ignored)")
        }
        try startBackground(host, event: ("runtime.onInstalled", [#"{"reason":"install"}"#]))
        return host
    }

    /// Starts `host`'s background context if the manifest has one, then fires `event`.
    func startBackground(_ host: ExtensionHost, event: (String, [String])?) throws {
        guard let background = host.bundle.manifest.background else { return }
        let url = host.bundle.url("_generated_background_page.html")
        let page = try session.open(html: "<!DOCTYPE html><html><head></head><body></body></html>", url: url, beforeLoad: { [unowned self] page in
            host.backgroundPage = page
            host.backgroundContext = try self.makeContext(for: host, kind: .background, world: page.pageWorld)
        })
        let files: [String]
        let isServiceWorker: Bool
        switch background {
        case let .scripts(list):
            files = list
            isServiceWorker = false
        case let .serviceWorker(file):
            files = [file]
            isServiceWorker = true
            // A service worker has no DOM and no window; WebKit rejects its import() (HTML forbids it).
            try page.pageWorld.evaluate("Object.defineProperties(globalThis, { document: { value: undefined }, window: { value: undefined } });", sourceURL: "adv-runtime:///service-worker.js")
            try page.disallowDynamicImport(in: page.pageWorld)
        }
        for file in files {
            let url = host.bundle.url(file)
            if host.bundle.manifest.backgroundUsesModules {
                // A module service worker, or the `<script type="module">` WebKit's generated
                // background page has for each script: each with its imports, in order.
                try page.runModule(url: url, in: page.pageWorld, serviceWorker: isServiceWorker, during: "background module \(file)")
            } else {
                let source = try host.bundle.text(file)
                page.pageWorld.run(page.classicSource(source, in: page.pageWorld, referrer: url), sourceURL: url, during: "background script \(file)")
            }
        }
        if let (name, arguments) = event {
            loop.schedule(label: "\(name) of \(host.bundle.manifest.name)") { [weak host] in
                host?.backgroundContext?.dispatch(name, json: arguments)
            }
        }
        scheduleIdleUnload(of: host)
    }

    // MARK: - Contexts

    /// Gives `world` a `browser` (and `chrome`) object for `host`, as a context of `kind`.
    func makeContext(for host: ExtensionHost, kind: ExtensionContext.Kind, world: World) throws -> ExtensionContext {
        let id = nextContextID
        nextContextID += 1
        let realm = session.realm.context
        let privileged = kind.isPrivileged
        if privileged { applyExtensionPagePolicy(to: world) }
        let (surface, events) = try apiSurface(of: host, privileged: privileged)
        let properties = try apiProperties(of: host)
        let reportError = realm.function("reportError", length: 2) { [weak world] call in
            world?.page?.report(JSErrorReport(error: JSError(thrown: call.argument(1)), during: "an extension event listener"), world: world?.name ?? "page")
            return nil
        }
        // The context's own canonical JSON serializer (ExtensionContext.canonical), for ports'
        // messages; the context is made below, once its `browser` exists.
        weak var made: ExtensionContext?
        let canonical = realm.function("canonical", length: 1) { call in
            guard let made else { return call.context.undefined }
            return try made.canonical.call([call.argument(0)])
        }
        // The context's own Error, TypeError and Promise, for what its `browser` throws and
        // rejects with (browser-api.js, `own`), taken before any of its scripts runs, and its
        // global, whose console reports an unchecked runtime.lastError.
        let own = realm.object()
        for name in ["Error", "TypeError", "Promise"] { try own.set(name, world.global[name]) }
        try own.set("global", world.global)
        // A shallow copy made in the context's realm (an event's details given to one listener
        // with less in them than another's), with what it calls captured before any of the
        // extension's code runs.
        try own.set("copy", try world.context.evaluate(hostScript: "(function () { const keys = Object.keys; return function copy(source) { const made = {}; const list = keys(source); for (let i = 0; i < list.length; i++) made[list[i]] = source[list[i]]; return made; }; })()", sourceURL: "adv-runtime:///copy.js"))
        try own.set("testing", realm.boolean(options.testAPI))
        // Safari shows a content script storage.session only while the area is open to it
        // (WebExtensionAPIStorageCocoa.mm, isPropertyAllowed): makeBrowser gates it on this.
        if !privileged, options.profile == .safari, host.bundle.manifest.has("storage") {
            try own.set("sessionOpen", try sessionGate(of: host))
        }
        let api = try apiModule.invoke("makeBrowser", [realm.number(Double(id)), surface, events, properties, reportError, canonical, own,
                                                       realm.string(options.profile.rawValue)])
        let browserObject = api["browser"]
        let runtime = browserObject["runtime"]
        let bundle = host.bundle
        try runtime.set("getURL", realm.function("getURL", length: 1) { call in
            call.context.string(bundle.url(try call.argument(0).toString()))
        })
        let manifestJSON = bundle.manifestText
        try runtime.set("getManifest", realm.function("getManifest", length: 0) { [weak world] call in
            try (world?.context ?? call.context).parseJSON(manifestJSON)
        })
        if privileged, browserObject["extension"].isObject {
            let extensionObject = browserObject["extension"]
            // In a private tab's context only (extension pages here are never private).
            try extensionObject.set("inIncognitoContext", realm.boolean(false))
            // Safari keeps the old extension.getURL; Chrome dropped it in Manifest V3.
            if options.profile == .safari {
                try extensionObject.set("getURL", realm.function("getURL", length: 1) { call in
                    call.context.string(bundle.url(try call.argument(0).toString()))
                })
            }
            // getViews({type, tabId, windowId}): the windows of the extension's pages (its
            // popup and its pages in tabs; a service worker has none).
            let extensionID = host.id
            try extensionObject.set("getViews", realm.function("getViews", length: 1) { [weak self] call in
                guard let self, let host = self.extensionHost(extensionID) else { return try call.context.array([]) }
                let filter = call.argument(0)
                let type = filter.isObject ? filter["type"].stringValue : nil
                let tabID = filter.isObject ? filter["tabId"].numberValue.map(Int.init) : nil
                let windowID = filter.isObject ? filter["windowId"].numberValue.map(Int.init) : nil
                let views = self.liveContexts(of: host).filter { context in
                    switch context.kind {
                    case .popup: return (type == nil || type == "popup") && tabID == nil && windowID == nil
                    case let .tab(id, frame):
                        return frame == 0 && (type == nil || type == "tab") && (tabID == nil || tabID == id) && (windowID == nil || windowID == self.tab(id)?.windowID)
                    case .background, .content: return false
                    }
                }
                return try call.context.array(views.map(\.world.global))
            })
        }
        if privileged { try defineBackgroundPageAccess(browserObject, host: host, kind: kind, world: world) }
        // Safari gives both names to one namespace; Chrome has only `chrome`.
        if options.profile == .safari { try world.global.set("browser", browserObject) }
        try world.global.set("chrome", browserObject)
        let context = ExtensionContext(id: id, kind: kind, host: host, world: world, api: api)
        made = context
        contexts[id] = context
        return context
    }

    /// `extension.getBackgroundPage()` and `runtime.getBackgroundPage()`: the window of the
    /// extension's background page, for its other pages (they share its process, so it is handed
    /// over as it is, not through messages).
    /// - Safari (WebExtensionAPIRuntimeCocoa.mm, WebExtensionAPIExtensionCocoa.mm): a
    ///   `background.scripts` page's window; `runtime.getBackgroundPage` loads an unloaded one
    ///   first (WebExtensionContext::runtimeGetBackgroundPage wakes the background); a service
    ///   worker has no window, so both answer null.
    /// - Chrome (Manifest V3 has only service workers): `extension.getBackgroundPage()` answers
    ///   null and `runtime.getBackgroundPage` fails with "You do not have a background page."
    ///   (Chromium's runtime API, kNoBackgroundPageError); both are foreground-only, so the
    ///   service worker has neither.
    func defineBackgroundPageAccess(_ browserObject: JSValue, host: ExtensionHost, kind: ExtensionContext.Kind, world: World) throws {
        let chromium = options.profile == .chromium
        let realm = session.realm.context
        let extensionID = host.id
        if browserObject["extension"].isObject, !(chromium && kind == .background) {
            try browserObject["extension"].set("getBackgroundPage", realm.function("getBackgroundPage", length: 0) { [weak self] call in
                guard let self, let host = self.extensionHost(extensionID) else { return call.context.null }
                return self.backgroundPage(of: host) ?? call.context.null
            })
        }
        // runtime.getBackgroundPage is an API call (Browser+Runtime); foreground-only in Chrome.
        if chromium, kind == .background { _ = try? browserObject["runtime"].deleteProperty("getBackgroundPage") }
    }

    /// The window of `host`'s background page while it is loaded: Safari's `background.scripts`
    /// page (a service worker, and every Chrome background, has none).
    func backgroundPage(of host: ExtensionHost) -> JSValue? {
        guard options.profile == .safari, case .scripts = host.bundle.manifest.background else { return nil }
        return host.backgroundWorld?.global
    }

    /// The Content Security Policy every Manifest V3 extension page runs under (the background,
    /// the popup, its pages in tabs): no `eval` or `new Function`, no inline scripts. Safari's
    /// default is `script-src 'self'`; Chrome's `script-src 'self' 'wasm-unsafe-eval'`
    /// (developer.chrome.com, manifest/content-security-policy). The messages are each engine's
    /// console text (WebKit's ContentSecurityPolicy; Chrome's with its hash left out).
    func applyExtensionPagePolicy(to world: World) {
        let chromium = options.profile == .chromium
        let directive = chromium ? "script-src 'self' 'wasm-unsafe-eval'" : "script-src 'self'"
        world.context.setEvalEnabled(false, message: "Refused to evaluate a string as JavaScript because 'unsafe-eval' is not an allowed source of script in the following Content Security Policy directive: \"\(directive)\".")
        guard let page = world.page, page.madePageWorld === world else { return }
        page.inlineScriptRefusal = chromium
            ? "Refused to execute inline script because it violates the following Content Security Policy directive: \"\(directive)\". Either the 'unsafe-inline' keyword, a hash ('sha256-...'), or a nonce ('nonce-...') is required to enable inline execution."
            : "Refused to execute a script because its hash, its nonce, or 'unsafe-inline' does not appear in the script-src directive of the Content Security Policy."
    }

    /// The values every context of `host` gets as properties (runtime.id, each storage area's
    /// limits as the browser exposes them: QUOTA_BYTES everywhere; sync's per-item, item and
    /// write limits — Safari has them on sync only, and no
    /// MAX_SUSTAINED_WRITE_OPERATIONS_PER_MINUTE, WebExtensionAPIStorageAreaCocoa.mm), made once:
    /// every navigation makes a content context, and makeBrowser only reads them.
    func apiProperties(of host: ExtensionHost) throws -> JSValue {
        if let made = host.apiProperties { return made }
        var constants: [String: Any] = ["runtime.id": host.id]
        if host.bundle.manifest.has("storage") {
            for area in [host.local, host.sync, host.sessionStorage] { constants["storage.\(area.name).QUOTA_BYTES"] = area.quotaBytes }
            constants["storage.sync.QUOTA_BYTES_PER_ITEM"] = host.sync.quotaBytesPerItem ?? 0
            constants["storage.sync.MAX_ITEMS"] = host.sync.maxItems ?? 0
            constants["storage.sync.MAX_WRITE_OPERATIONS_PER_HOUR"] = 1800
            constants["storage.sync.MAX_WRITE_OPERATIONS_PER_MINUTE"] = 120
            if options.profile == .chromium { constants["storage.sync.MAX_SUSTAINED_WRITE_OPERATIONS_PER_MINUTE"] = 1_000_000 }
        }
        let permissions = host.bundle.manifest.permissions
        if permissions.contains("declarativeNetRequest") || permissions.contains("declarativeNetRequestWithHostAccess") {
            // declarativeNetRequest's constants as each browser exposes them: Safari has three
            // (WebExtensionAPIDeclarativeNetRequest.idl, values from WebExtensionConstants.h);
            // Chrome the whole set (declarative_net_request.idl; DNRLimits).
            let dnr = "declarativeNetRequest."
            constants[dnr + "MAX_NUMBER_OF_STATIC_RULESETS"] = DNRLimits.maxStaticRulesets
            constants[dnr + "MAX_NUMBER_OF_ENABLED_STATIC_RULESETS"] = DNRLimits.maxEnabledStaticRulesets
            constants[dnr + "MAX_NUMBER_OF_DYNAMIC_AND_SESSION_RULES"] = DNRLimits.maxUnsafeDynamicRules
            if options.profile == .chromium {
                constants[dnr + "GUARANTEED_MINIMUM_STATIC_RULES"] = DNRLimits.guaranteedMinimumStaticRules
                constants[dnr + "MAX_NUMBER_OF_DYNAMIC_RULES"] = DNRLimits.maxDynamicRules
                constants[dnr + "MAX_NUMBER_OF_UNSAFE_DYNAMIC_RULES"] = DNRLimits.maxUnsafeDynamicRules
                constants[dnr + "MAX_NUMBER_OF_SESSION_RULES"] = DNRLimits.maxSessionRules
                constants[dnr + "MAX_NUMBER_OF_UNSAFE_SESSION_RULES"] = DNRLimits.maxSessionRules
                constants[dnr + "MAX_NUMBER_OF_REGEX_RULES"] = DNRLimits.maxRegexRules
                constants[dnr + "MAX_GETMATCHEDRULES_CALLS_PER_INTERVAL"] = 20
                constants[dnr + "GETMATCHEDRULES_QUOTA_INTERVAL"] = 10
                constants[dnr + "DYNAMIC_RULESET_ID"] = "_dynamic"
                constants[dnr + "SESSION_RULESET_ID"] = "_session"
            }
        }
        let made = try session.realm.context.value(constants)
        host.apiProperties = made
        return made
    }

    /// The function Safari's content contexts ask whether storage.session is open to them, one
    /// per extension.
    func sessionGate(of host: ExtensionHost) throws -> JSValue {
        if let made = host.sessionGate { return made }
        let area = host.sessionStorage
        let made = session.realm.context.function("sessionOpen", length: 0) { call in call.context.boolean(area.openToContentScripts) }
        host.sessionGate = made
        return made
    }

    func attachContentWorld(_ world: World, page: Page) throws {
        guard case let .content(extensionID) = world.kind, let host = extensionHost(extensionID) else { return }
        let frame = pageFrames[page.id]
        let tabID = frame?.tab.id ?? pageTabs[page.id] ?? 0
        _ = try makeContext(for: host, kind: .content(tabID: tabID, frameID: frame?.id ?? 0), world: world)
    }

    /// The methods (name -> [min, max] argument counts) and event names `host` gets in a
    /// privileged or content context, made once per kind: every navigation makes a content
    /// context, `makeBrowser` only reads them, and an installed extension's permissions do not
    /// change.
    func apiSurface(of host: ExtensionHost, privileged: Bool) throws -> (surface: JSValue, events: JSValue) {
        if let made = host.apiSurfaces[privileged] { return made }
        let permissions = host.permissions
        let realm = session.realm.context
        let surface = realm.object()
        var events: [JSValue] = []
        for namespace in APISurface.surface(privileged: privileged, permissions: permissions, profile: options.profile, hasCommands: host.bundle.manifest.commands != nil) {
            let methods = realm.object()
            for (method, counts) in namespace.methods {
                try methods.set(method, try realm.array([realm.number(Double(counts.min)), realm.number(Double(counts.max))]))
            }
            if !namespace.methods.isEmpty { try surface.set(namespace.name, methods) }
            events += namespace.events.map { realm.string(namespace.name + "." + $0) }
        }
        let made = (surface, try realm.array(events))
        host.apiSurfaces[privileged] = made
        return made
    }

    /// Live contexts of `host`, in creation order.
    func liveContexts(of host: ExtensionHost) -> [ExtensionContext] {
        let order = contextOrder ?? contexts.keys.sorted()
        contextOrder = order
        return order.compactMap { contexts[$0] }.filter { $0.host === host && $0.isAlive }
    }
}

extension ExtensionContext {
    /// Calls every listener of `event` with arguments given as JSON texts, parsed in this realm,
    /// in a task of its own: in Safari an extension event crosses from the browser to the
    /// context's process and never runs inside the script whose action fired it. The arguments
    /// are fixed when the event fires; a context gone by then gets nothing.
    /// With `userGesture`, the listeners run as the handling of the user's input (an action
    /// click, a keyboard command): a permissions.request there may prompt.
    func dispatch(_ event: String, json arguments: [String], userGesture: Bool = false) {
        guard isAlive else { return }
        host.browser.loop.schedule(owner: world.page?.id, label: "\(event) to \(location)") { [weak self] in
            guard let self, self.isAlive else { return }
            let context = self.world.context
            guard let args = try? context.array(arguments.map { try context.parseJSON($0) }) else { return }
            let browser = self.host.browser
            let previous = browser.inUserGesture
            if userGesture { browser.inUserGesture = true }
            defer { browser.inUserGesture = previous }
            _ = try? self.api.invoke("dispatch", [context.string(event), args])
        }
    }
}
