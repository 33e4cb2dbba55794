import WebRuntime

/// The `browser.*` surface as data (namespace -> method -> argument counts, and events), in the
/// manner of webextension-polyfill's metadata table. What a context gets is filtered by its kind
/// and the manifest's permissions; anything not listed is absent, never stubbed.
package enum APISurface {
    /// Which contexts see a namespace.
    enum Audience { case all, privileged }

    struct Namespace {
        let name: String
        let permission: String?
        let audience: Audience
        let methods: [String: (min: Int, max: Int)]
        let events: [String]
    }

    static let namespaces: [Namespace] = [
        Namespace(name: "runtime", permission: nil, audience: .all,
                  methods: ["sendMessage": (1, 3), "getURL": (1, 1), "getManifest": (0, 0), "sendNativeMessage": (1, 2),
                            "getPlatformInfo": (0, 0), "getBackgroundPage": (0, 0), "openOptionsPage": (0, 0), "setUninstallURL": (0, 1), "reload": (0, 0)],
                  // onSuspend and onUpdateAvailable exist and never fire: nothing suspends a
                  // background with notice, and nothing is updated.
                  events: ["onMessage", "onConnect", "onInstalled", "onStartup", "onSuspend", "onUpdateAvailable", "onMessageExternal", "onConnectExternal"]),
        Namespace(name: "storage.local", permission: "storage", audience: .all,
                  methods: ["get": (0, 1), "set": (1, 1), "remove": (1, 1), "clear": (0, 0), "getBytesInUse": (0, 1), "getKeys": (0, 0)],
                  events: ["onChanged"]),
        Namespace(name: "storage.sync", permission: "storage", audience: .all,
                  methods: ["get": (0, 1), "set": (1, 1), "remove": (1, 1), "clear": (0, 0), "getBytesInUse": (0, 1), "getKeys": (0, 0)],
                  events: ["onChanged"]),
        // Content scripts reach it only once an extension page opens it (setAccessLevel):
        // Safari hides it until then, Chrome refuses each call (browser-api.js, Browser+Storage).
        Namespace(name: "storage.session", permission: "storage", audience: .all,
                  methods: ["get": (0, 1), "set": (1, 1), "remove": (1, 1), "clear": (0, 0), "getBytesInUse": (0, 1), "getKeys": (0, 0),
                            "setAccessLevel": (1, 1)],
                  events: ["onChanged"]),
        Namespace(name: "storage", permission: "storage", audience: .all, methods: [:], events: ["onChanged"]),
        Namespace(name: "tabs", permission: nil, audience: .privileged,
                  // WebKit's WebExtensionAPITabs.idl: these (toggleReaderMode is Safari's only)
                  // and nine events; move, discard, highlight, group and ungroup are Chrome's.
                  // onReplaced exists and never fires (nothing prerenders a tab).
                  methods: ["query": (1, 1), "get": (1, 1), "getCurrent": (0, 0), "sendMessage": (2, 3), "create": (1, 1), "update": (1, 2),
                            "remove": (1, 1), "reload": (0, 2), "goBack": (0, 1), "goForward": (0, 1), "duplicate": (1, 2),
                            "captureVisibleTab": (0, 2), "detectLanguage": (0, 1), "getZoom": (0, 1), "setZoom": (1, 2), "toggleReaderMode": (0, 1)],
                  events: ["onCreated", "onUpdated", "onActivated", "onRemoved", "onMoved", "onHighlighted", "onAttached", "onDetached", "onReplaced"]),
        Namespace(name: "windows", permission: nil, audience: .privileged,
                  methods: ["get": (1, 2), "getCurrent": (0, 1), "getLastFocused": (0, 1), "getAll": (0, 1), "create": (0, 1),
                            "update": (2, 2), "remove": (1, 1)],
                  events: ["onCreated", "onRemoved", "onFocusChanged"]),
        Namespace(name: "action", permission: nil, audience: .privileged,
                  methods: ["setIcon": (1, 1), "setBadgeText": (1, 1), "getBadgeText": (1, 1), "setBadgeBackgroundColor": (1, 1),
                            "getBadgeBackgroundColor": (1, 1), "setTitle": (1, 1), "getTitle": (1, 1), "setPopup": (1, 1), "getPopup": (1, 1),
                            "setBadgeTextColor": (1, 1), "getBadgeTextColor": (1, 1), "enable": (0, 1), "disable": (0, 1), "isEnabled": (0, 1),
                            "getUserSettings": (0, 0), "openPopup": (0, 1)],
                  events: ["onClicked"]),
        // i18n: every context, content scripts included, in both browsers, and no permission.
        // getMessage and getUILanguage answer at once in the caller (browser-api.js
        // `synchronous`), as both browsers answer them from catalogs the context already has;
        // detectLanguage is Chrome's only (Safari has none) and refused (no language model).
        Namespace(name: "i18n", permission: nil, audience: .all,
                  methods: ["getMessage": (1, 3), "getUILanguage": (0, 0), "getAcceptLanguages": (0, 0)],
                  events: []),
    ]

    /// webNavigation needs its permission: the frame-tree queries and the navigation events.
    static let webNavigation = Namespace(name: "webNavigation", permission: "webNavigation", audience: .privileged,
                                         methods: ["getFrame": (1, 1), "getAllFrames": (1, 1)],
                                         events: ["onBeforeNavigate", "onCommitted", "onDOMContentLoaded", "onCompleted", "onErrorOccurred"])

    /// declarativeNetRequest needs either DNR permission.
    static let dnr = Namespace(name: "declarativeNetRequest", permission: "declarativeNetRequest", audience: .privileged,
                               methods: ["getEnabledRulesets": (0, 0), "updateEnabledRulesets": (1, 1), "updateDynamicRules": (1, 1),
                                         "getDynamicRules": (0, 1), "updateSessionRules": (1, 1), "getSessionRules": (0, 1),
                                         "isRegexSupported": (1, 1), "getMatchedRules": (0, 1), "setExtensionActionOptions": (1, 1)],
                               events: ["onRuleMatchedDebug"])

    /// declarativeNetRequest methods only Chrome has: WebKit's IDL
    /// (WebExtensionAPIDeclarativeNetRequest.idl) defines none of these.
    static let chromiumOnlyDNRMethods: [String: (Int, Int)] = [
        "getAvailableStaticRuleCount": (0, 0), "getDisabledRuleIds": (1, 1), "updateStaticRules": (1, 1), "testMatchOutcome": (1, 1),
    ]

    /// tabs methods only Chrome has (WebKit's IDL defines none of these).
    static let chromiumOnlyTabsMethods: [String: (Int, Int)] = [
        "move": (2, 2), "discard": (0, 1), "highlight": (1, 1), "group": (1, 1), "ungroup": (1, 1),
        "getZoomSettings": (0, 1), "setZoomSettings": (1, 2),
    ]

    /// scripting needs its permission; extension pages only (WebKit's
    /// isScriptingMessageAllowed: privileged and with the permission).
    static let scripting = Namespace(name: "scripting", permission: "scripting", audience: .privileged,
                                     methods: ["executeScript": (1, 1), "insertCSS": (1, 1), "removeCSS": (1, 1), "registerContentScripts": (1, 1),
                                               "getRegisteredContentScripts": (0, 1), "updateContentScripts": (1, 1), "unregisterContentScripts": (0, 1)],
                                     events: [])

    /// alarms needs its permission; extension pages only (WebKit's IDL marks it MainWorldOnly;
    /// Chrome does not give it to content scripts).
    static let alarms = Namespace(name: "alarms", permission: "alarms", audience: .privileged,
                                  methods: ["create": (1, 2), "get": (0, 1), "getAll": (0, 0), "clear": (0, 1), "clearAll": (0, 0)],
                                  events: ["onAlarm"])

    /// permissions needs no permission; extension pages only (WebKit's IDL marks it
    /// MainWorldOnly; Chrome does not give it to content scripts).
    static let permissionsAPI = Namespace(name: "permissions", permission: nil, audience: .privileged,
                                       methods: ["contains": (1, 1), "getAll": (0, 0), "request": (1, 1), "remove": (1, 1)],
                                       events: ["onAdded", "onRemoved"])

    /// commands: Chrome always has it in extension pages; Safari only when the manifest has a
    /// `commands` object (WebExtensionAPINamespace.cpp, isPropertyAllowed).
    static let commands = Namespace(name: "commands", permission: nil, audience: .privileged,
                                    methods: ["getAll": (0, 0)], events: ["onCommand"])

    /// contextMenus (its permission), and in Safari also menus (its own permission): the same
    /// API (WebExtensionAPIMenusCocoa.mm); extension pages only.
    static let menuMethods: [String: (min: Int, max: Int)] = ["create": (1, 1), "update": (2, 2), "remove": (1, 1), "removeAll": (0, 0)]
    static let contextMenus = Namespace(name: "contextMenus", permission: "contextMenus", audience: .privileged, methods: menuMethods, events: ["onClicked"])
    static let menus = Namespace(name: "menus", permission: "menus", audience: .privileged, methods: menuMethods, events: ["onClicked"])

    /// extension: the incognito questions (inIncognitoContext is a property, browser-api.js).
    static let extensionAPI = Namespace(name: "extension", permission: nil, audience: .privileged,
                                        methods: ["isAllowedIncognitoAccess": (0, 0), "isAllowedFileSchemeAccess": (0, 0)], events: [])

    /// webRequest with its permission, extension pages only, observation only (Manifest V3).
    static let webRequest = Namespace(name: "webRequest", permission: "webRequest", audience: .privileged, methods: [:],
                                      events: ["onBeforeRequest", "onBeforeSendHeaders", "onSendHeaders", "onHeadersReceived",
                                               "onResponseStarted", "onCompleted", "onErrorOccurred", "onBeforeRedirect", "onAuthRequired"])

    /// cookies with its permission (and host access per cookie), extension pages only.
    static let cookies = Namespace(name: "cookies", permission: "cookies", audience: .privileged,
                                   methods: ["get": (1, 1), "getAll": (1, 1), "set": (1, 1), "remove": (1, 1), "getAllCookieStores": (0, 0)],
                                   events: ["onChanged"])

    /// Every namespace some context can be given.
    static let every = namespaces + [webNavigation, dnr, scripting, alarms, permissionsAPI, commands, contextMenus, menus, extensionAPI, webRequest, cookies]

    /// Every namespace with its methods and events (the README's API table is checked against it).
    package static var table: [(name: String, methods: [String], events: [String])] {
        every.map { ($0.name, $0.methods.keys.sorted(), $0.events) }
    }

    /// Every method any context can be given, as `namespace.method`: what a fault plan may name.
    package static let methodNames: Set<String> = Set(["runtime.getContexts", "runtime.requestUpdateCheck", "i18n.detectLanguage"] + chromiumOnlyTabsMethods.keys.map { "tabs." + $0 } + chromiumOnlyDNRMethods.keys.map { "declarativeNetRequest." + $0 } + every.flatMap { namespace in
        namespace.methods.keys.map { namespace.name + "." + $0 }
    })

    /// The surface for a context: namespaces it may see given `permissions`.
    /// webNavigation's same-document events, Chrome's only (WebKit's IDL has five events).
    static let chromiumWebNavigation = Namespace(name: webNavigation.name, permission: webNavigation.permission, audience: webNavigation.audience,
                                                 methods: webNavigation.methods,
                                                 events: webNavigation.events + ["onHistoryStateUpdated", "onReferenceFragmentUpdated"])

    static func surface(privileged: Bool, permissions: Set<String>, profile: Browser.Profile = .safari, hasCommands: Bool = false) -> [Namespace] {
        var all = namespaces + [profile == .chromium ? chromiumWebNavigation : webNavigation, scripting, alarms, permissionsAPI, contextMenus, extensionAPI, webRequest, cookies]
        if profile == .safari { all.append(menus) }
        if profile == .chromium || hasCommands { all.append(commands) }
        if permissions.contains("declarativeNetRequest") || permissions.contains("declarativeNetRequestWithHostAccess") {
            // onRuleMatchedDebug needs the feedback permission in both (WebKit's isPropertyAllowed;
            // Chrome: unpacked extensions with declarativeNetRequestFeedback, as every extension
            // the harness loads from a folder is).
            let methods = profile == .chromium ? dnr.methods.merging(chromiumOnlyDNRMethods) { own, _ in own } : dnr.methods
            let events = permissions.contains("declarativeNetRequestFeedback") ? dnr.events : []
            all.append(Namespace(name: dnr.name, permission: nil, audience: dnr.audience, methods: methods, events: events))
        }
        return all.filter { namespace in
            if namespace.audience == .privileged, !privileged { return false }
            if let permission = namespace.permission, !permissions.contains(permission) { return false }
            return true
        }.map { namespace in
            // WebKit marks storage.session's setAccessLevel main-world only; Chrome's content
            // scripts have it (and are refused).
            if namespace.name == "storage.session", !privileged, profile == .safari {
                var methods = namespace.methods
                methods["setAccessLevel"] = nil
                return Namespace(name: namespace.name, permission: namespace.permission, audience: namespace.audience, methods: methods, events: namespace.events)
            }
            // runtime.sendNativeMessage exists only with the "nativeMessaging" permission and only
            // in extension pages (Chrome's runtime API table; Safari's native messaging guide:
            // the background and extension pages talk to the app, content scripts do not).
            // openOptionsPage is an extension-page method in both (Chrome's content-script API
            // list leaves it out; WebKit marks it main-world only).
            // i18n.detectLanguage is Chrome's (a CLD3 model); it is refused with a clear error.
            if namespace.name == "i18n", profile == .chromium {
                return Namespace(name: namespace.name, permission: namespace.permission, audience: namespace.audience,
                                 methods: namespace.methods.merging(["detectLanguage": (1, 1)]) { own, _ in own }, events: namespace.events)
            }
            // Zoom settings, onZoomChange, move, discard and the selection and group calls are
            // Chrome's; Reader is Safari's (WebKit's tabs have getZoom/setZoom only).
            if namespace.name == "tabs", profile == .chromium {
                var methods = namespace.methods.merging(chromiumOnlyTabsMethods) { own, _ in own }
                methods["toggleReaderMode"] = nil
                return Namespace(name: namespace.name, permission: namespace.permission, audience: namespace.audience,
                                 methods: methods, events: namespace.events + ["onZoomChange"])
            }
            // windows.onBoundsChanged is Chrome's (86+); WebKit's windows have three events.
            if namespace.name == "windows", profile == .chromium {
                return Namespace(name: namespace.name, permission: namespace.permission, audience: namespace.audience,
                                 methods: namespace.methods, events: namespace.events + ["onBoundsChanged"])
            }
            guard namespace.name == "runtime" else { return namespace }
            var methods = namespace.methods
            if !(permissions.contains("nativeMessaging") && privileged) { methods["sendNativeMessage"] = nil }
            if !privileged { methods["openOptionsPage"] = nil; methods["setUninstallURL"] = nil; methods["reload"] = nil; methods["getBackgroundPage"] = nil }
            // getContexts is Chrome's (116+), for extension pages; Safari has none.
            if privileged, profile == .chromium { methods["getContexts"] = (0, 1) }
            // requestUpdateCheck is Chrome's (WebKit's runtime IDL has none).
            if privileged, profile == .chromium { methods["requestUpdateCheck"] = (0, 0) }
            // onMessageExternal and onConnectExternal (web pages' messages and ports:
            // Browser+Runtime exposeExternalMessaging, Browser+ExternalPorts) are for the
            // extension's background and pages, not its content scripts.
            let events = privileged ? namespace.events : namespace.events.filter { $0 != "onMessageExternal" && $0 != "onConnectExternal" }
            return Namespace(name: namespace.name, permission: namespace.permission, audience: namespace.audience, methods: methods, events: events)
        }
    }
}
