import BlockerCore
import Foundation
import JSKit
import WebRuntime

/// An installed extension inside a ``Browser``: its bundle, storage, toolbar state, background
/// and the contexts its code runs in.
public final class ExtensionHost {
    /// The extension's files and manifest.
    public let bundle: ExtensionBundle
    unowned let browser: Browser
    let local: StorageArea
    let sync: StorageArea
    let sessionStorage: StorageArea
    /// Chrome's write limits on storage.sync (extensions/browser/quota_service.cc): per method,
    /// the start of the current minute and hour windows and the calls made in each.
    var syncWrites: [String: (minute: VirtualTime, inMinute: Int, hour: VirtualTime, inHour: Int)] = [:]
    var action: ActionState
    /// Calls to fail or delay.
    public var faults = FaultPlan()
    /// Answers `runtime.sendNativeMessage(application, message)`: JSON in, JSON out (nil: no
    /// answer configured, the call fails as when the native host is missing).
    public var nativeMessageHandler: ((String, String) -> Result<String, NativeMessageError>)?
    /// API surfaces made for its privileged and its content contexts (Browser.apiSurface).
    var apiSurfaces: [Bool: (surface: JSValue, events: JSValue)] = [:]
    /// The properties every context gets, and Safari's storage.session gate (Browser+Extensions).
    var apiProperties: JSValue?
    var sessionGate: JSValue?
    var backgroundContext: ExtensionContext?
    var backgroundPage: Page?
    /// Events the background listened to when it was suspended: any of them wakes it.
    var wakeEvents: Set<String> = []
    /// The pending idle unload of the background (when the browser unloads idle backgrounds).
    var idleUnloadTask: TaskID?
    /// When the background last posted a message on a port.
    var lastBackgroundPortActivity: VirtualTime?
    let dnr: DNRState
    /// Optional permissions and host patterns granted at run time (permissions.request).
    var grantedPermissions: Set<String> = []
    var grantedOrigins: [MatchPattern] = []
    /// The API permissions in force: the manifest's and those granted since.
    var permissions: Set<String> { bundle.manifest.permissions.union(grantedPermissions) }
    /// runtime.setUninstallURL's URL (kept; nothing is uninstalled).
    var uninstallURL = ""
    /// Content scripts scripting.registerContentScripts added, in order.
    var registeredScripts: [RegisteredScript] = []
    /// Context-menu items, in creation order, and how many ids were made for items given none.
    var menuItems: [MenuItem] = []
    var menuIDs = 0
    /// `alarms` alarms by name (kept by the browser, so they outlive a background's unloading).
    var alarms: [String: ScheduledAlarm] = [:]

    init(bundle: ExtensionBundle, browser: Browser) throws {
        self.bundle = bundle
        self.browser = browser
        local = StorageArea(name: "local", profile: browser.options.profile)
        sync = StorageArea(name: "sync", profile: browser.options.profile)
        sessionStorage = StorageArea(name: "session", profile: browser.options.profile)
        action = ActionState(manifest: bundle.manifest)
        dnr = try DNRState(bundle: bundle)
    }

    /// The dynamic DNR rules as canonical JSON.
    public var dynamicRulesJSON: String { Browser.rulesJSON(dnr.dynamicRules) }

    /// Replaces the dynamic rules (scenario setup).
    /// - Throws: ``ManifestError``-style errors for invalid rules.
    public func setDynamicRules(json: String) throws {
        let rules = try DNRRuleset.decodeRules(from: Data(json.utf8), file: "dynamic rules")
        if let error = DNRRuleValidator.validate(ruleset: rules, source: .dynamic).first { throw BrowserError(error.message) }
        dnr.dynamicRules = rules
        dnr.invalidate()
    }

    /// The extension id.
    public var id: String { bundle.id }

    /// `browser.storage.local` as canonical JSON.
    public var localStorageJSON: String { local.json }
    /// `browser.storage.sync` as canonical JSON.
    public var syncStorageJSON: String { sync.json }
    /// `browser.storage.session` as canonical JSON.
    public var sessionStorageJSON: String { sessionStorage.json }

    /// Replaces `storage.local` (scenario setup); no onChanged is fired.
    public func setLocalStorage(json: String) { local.replaceAll(json) }

    /// What the toolbar shows on `tab`: icon path, badge text and title.
    public func toolbar(for tab: Tab) -> (icon: String?, badge: String, title: String) {
        let values = action.effective(tab: tab.id)
        return (values.icon, values.badgeText ?? "", values.title ?? "")
    }

    /// The background's world, if it is running.
    public var backgroundWorld: World? { backgroundContext?.world }

    /// True when the manifest has a background and it is not running (suspended, or not yet
    /// started again).
    public var isBackgroundSuspended: Bool { bundle.manifest.background != nil && backgroundPage == nil }
}

/// `runtime.sendNativeMessage` failed on the native side.
public struct NativeMessageError: Error, Sendable {
    /// The message the extension sees.
    public let message: String
    /// Makes an error.
    public init(_ message: String) { self.message = message }
}
