import StrictJSON
import WebRuntime

/// A validated Manifest V3 `manifest.json`.
public struct Manifest: Sendable {
    /// How the background context runs.
    public enum Background: Equatable, Sendable {
        /// `background.service_worker`: a worker without a DOM.
        case serviceWorker(String)
        /// `background.scripts` with `persistent: false`: Safari's non-persistent background page.
        case scripts([String])
    }

    /// One `content_scripts` entry.
    public struct ContentScriptEntry: Sendable {
        /// Pages it runs on.
        public var matches: [MatchPattern]
        /// Pages excluded even if matched.
        public var excludeMatches: [MatchPattern]
        /// Script files, in order.
        public var js: [String]
        /// Stylesheet files, injected as user stylesheets.
        public var css: [String]
        /// When the scripts run.
        public var runAt: ContentScript.RunAt
        /// Whether it runs in frames as well as the top document.
        public var allFrames: Bool
        /// Whether it runs in about:blank/srcdoc frames whose parent matches.
        public var matchAboutBlank: Bool
        /// `world`: "ISOLATED" (the extension's content world) or "MAIN" (the page's own).
        public var world = "ISOLATED"

        /// True when the entry applies to `url`.
        public func applies(to url: String) -> Bool {
            matches.contains { $0.matches(url) } && !excludeMatches.contains { $0.matches(url) }
        }
    }

    /// One `declarative_net_request.rule_resources` entry.
    public struct Ruleset: Equatable, Sendable {
        /// The ruleset id.
        public var id: String
        /// The JSON file of rules.
        public var path: String
        /// Whether it is enabled at install.
        public var enabled: Bool

        /// Makes a ruleset entry.
        public init(id: String, path: String, enabled: Bool) {
            self.id = id
            self.path = path
            self.enabled = enabled
        }
    }

    /// The `action` key.
    public struct Action: Equatable, Sendable {
        /// Icon paths by size (a single path is stored under size 0).
        public var defaultIcon: [Int: String]
        /// The popup page.
        public var defaultPopup: String?
        /// The tooltip.
        public var defaultTitle: String?
    }

    /// The options page: `options_ui.page`, else `options_page` (both browsers let `options_ui`
    /// win when a manifest has both).
    public struct OptionsPage: Equatable, Sendable {
        /// The page's path in the extension.
        public var page: String
        /// `options_ui.open_in_tab` (`options_page` always opens in a tab). Chrome shows an
        /// options_ui page without it embedded in chrome://extensions; here it opens in a tab
        /// either way, as Safari opens every options page.
        public var openInTab: Bool
    }

    /// One `commands` entry as written: its description and suggested keys by platform
    /// (`default`, `mac`, … ; a string form is stored under "").
    public struct Command: Equatable, Sendable {
        public var name: String
        public var description: String?
        public var suggestedKeys: [String: String]
    }

    /// One `web_accessible_resources` entry.
    public struct WebAccessibleResource: Sendable {
        /// Resource globs.
        public var resources: [String]
        /// Pages that may load them.
        public var matches: [MatchPattern]
    }

    public var manifestVersion: Int
    public var name: String
    public var version: String
    public var description: String?
    public var background: Background?
    /// `background.type` is `module`: the service worker is a module worker, or each background
    /// script a module script (WebKit's WebExtension::backgroundContentUsesModules).
    public var backgroundUsesModules = false
    public var contentScripts: [ContentScriptEntry]
    public var rulesets: [Ruleset]
    public var permissions: Set<String>
    public var hostPermissions: [MatchPattern]
    public var optionalHostPermissions: [MatchPattern]
    /// `optional_permissions`: API permissions the extension may ask for at run time.
    public var optionalPermissions: Set<String> = []
    /// `commands`, in the manifest's order; nil when the manifest has no `commands` object
    /// (Safari then gives no `commands` namespace).
    public var commands: [Command]? = nil
    public var webAccessibleResources: [WebAccessibleResource]
    /// `externally_connectable.matches`: the web pages that may message the extension
    /// (`runtime.sendMessage(extensionId, …)` from the page, `runtime.onMessageExternal`).
    public var externallyConnectable: [MatchPattern] = []
    public var action: Action?
    public var options: OptionsPage? = nil
    /// The manifest keys and permissions this runtime does not model (`manifest key 'commands'`,
    /// `permission 'alarms'`): the extension loads, as in a browser that ignores what it does
    /// not know, and installing says each once in the trace.
    public var unmodelled: [String] = []

    /// The top-level keys the runtime reads, and those that are only metadata (nothing to model).
    static let modelledKeys: Set<String> = [
        "manifest_version", "name", "version", "description", "background", "content_scripts", "declarative_net_request",
        "permissions", "host_permissions", "optional_host_permissions", "web_accessible_resources", "action",
        "icons", "author", "homepage_url", "short_name", "version_name", "minimum_chrome_version", "browser_specific_settings",
        "update_url", "offline_enabled", "options_ui", "options_page", "optional_permissions", "commands", "default_locale",
        "externally_connectable",
    ]
    /// The permissions something in the runtime checks.
    static let modelledPermissions: Set<String> = [
        "storage", "declarativeNetRequest", "declarativeNetRequestWithHostAccess", "declarativeNetRequestFeedback",
        "nativeMessaging", "scripting", "webNavigation", "activeTab", "tabs", "alarms", "contextMenus", "menus", "webRequest", "cookies",
    ]

    /// True when the manifest requests `permission` (an API permission such as `storage`).
    public func has(_ permission: String) -> Bool { permissions.contains(permission) }
}

/// A manifest problem, naming the file and the key path.
public struct ManifestError: Error, Equatable, CustomStringConvertible {
    /// The manifest file.
    public let file: String
    /// The offending key, e.g. `content_scripts[0].matches[1]` (empty for the file as a whole).
    public let keyPath: String
    /// What is wrong and how to fix it.
    public let reason: String
    /// Where in the file (1-based line and column), when known.
    public var line: Int?
    public var column: Int?

    /// Makes an error.
    public init(file: String, keyPath: String, reason: String, line: Int? = nil, column: Int? = nil) {
        self.file = file
        self.keyPath = keyPath
        self.reason = reason
        self.line = line
        self.column = column
    }

    /// `manifest.json:7:18: content_scripts[0].matches[1]: ...`
    public var description: String {
        return "\(file)\(JSONLocation.suffix(line: line, column: column)): " + (keyPath.isEmpty ? reason : "\(keyPath): \(reason)")
    }
}
