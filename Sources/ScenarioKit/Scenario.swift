import BlockerCore
import BrowserRuntime
import Foundation
import WebRuntime

/// A scenario: a browser set up as described, a timeline of steps at virtual times, and the
/// expectations to check. See fixtures/scenarios/README.md for the file format.
public struct Scenario: Sendable {
    /// `extension:PATH` in an `open` or `navigate` step: a page of the scenario's extension.
    static let extensionURLPrefix = "extension:"

    /// The scenario file.
    public let file: URL
    /// The suite (the scenario's folder name) and the scenario's name (file name without `.json`).
    public let suite: String
    public let name: String
    /// What the scenario proves (for ADV: the sentence of the spec).
    public let description: String
    /// The extension folder to install (nil: none).
    public let extensionFolder: URL?
    /// Manifest permissions the browser withholds (e.g. declarativeNetRequestFeedback).
    public let withheldPermissions: Set<String>
    /// Safari or Chromium behaviour.
    public let profile: Browser.Profile
    /// Site permissions by host (`*` for every other host).
    public let sitePermissions: [(host: String, permission: SitePermission)]
    /// storage.local at start, canonical JSON.
    public let localStorage: String?
    /// Dynamic rules at start, JSON.
    public let dynamicRules: String?
    /// Scripted native-message responses per application, answered in order (the last repeats).
    public let nativeMessages: [String: [String]]
    /// Real native hosts by application id: a registered kind (``NativeHosts``) and its options
    /// (values of keys ending in `File` are resolved paths).
    public let nativeHosts: [String: (kind: String, options: [String: String])]
    /// URL -> fixture file served for it.
    public let pages: [String: URL]
    /// URL -> headers its response carries beyond the Content-Type of its file name
    /// (`responseHeaders`), which header rules may change.
    public let responseHeaders: [String: [(name: String, value: String)]]
    /// Calls to fail or delay.
    public let faults: [FaultPlan.Rule]
    /// A getMatchedRules quota imposed on the Safari profile.
    public let feedbackQuota: (calls: Int, intervalMs: Double)?
    /// Whether the browser unloads a background after 30 s without an event, as Safari does.
    public let unloadsIdleBackground: Bool
    /// The extension gets `browser.test` (an extension under test): its assertions must hold,
    /// `testMessage` steps talk to it and `testMessage` expectations wait for what it sends.
    public let testAPI: Bool
    /// How the user answers the extension's permission prompts (`permissionPrompt`: accept or
    /// decline, the default).
    public let acceptsPermissionPrompts: Bool
    /// The timeline, in execution order.
    public let steps: [Step]
    /// Virtual time the scenario may use before it fails.
    public let virtualBudget: VirtualTime
    /// Wall time the scenario may use before it fails, in seconds.
    public let wallBudget: Double

    /// `suite/name`.
    public var id: String { "\(suite)/\(name)" }

    /// One step of the timeline.
    public struct Step: Sendable {
        /// When it runs.
        public let at: VirtualTime
        /// What it does.
        public let action: Action
        /// Its JSON path in the file, for messages.
        public let path: String
    }

    /// What a step does.
    public enum Action: Sendable {
        case open(tab: String, url: String, isPrivate: Bool)
        case navigate(tab: String, url: String)
        case reload(tab: String)
        /// The browser's back (-1) or forward (+1) button: a traversal of the tab's history.
        case traverse(tab: String, delta: Int)
        case close(tab: String)
        case activate(tab: String)
        case script(tab: String, world: String, source: String)
        case click(tab: String, selector: String, trusted: Bool)
        case key(tab: String, key: String, selector: String?)
        /// A user typing `text` into a text field (focus, then key events and input per character).
        case type(tab: String, text: String, selector: String)
        case media(tab: String, selector: String, properties: [(String, String)])
        /// The window showing the tab is resized: the page's viewport (CSS px) changes, media
        /// queries are evaluated again and `change` events fire.
        case viewport(tab: String, width: Int, height: Int)
        case setPermission(host: String, permission: SitePermission)
        /// The native side (the app, another process) handles `message` itself, as if sent by the
        /// app rather than the extension: how a scenario changes a shared file from outside.
        case nativeMessage(application: String, message: String)
        /// The user clicks the extension's toolbar button on a tab (opens its popup, if any).
        case clickToolbar(tab: String)
        /// The user presses a keyboard command's shortcut with the tab in front.
        case command(name: String, tab: String)
        /// The user chooses the extension's context-menu item on an element (or the page).
        case contextMenu(item: String, selector: String?, selection: String?, tab: String)
        case suspendBackground
        case wakeBackground
        case runUntilIdle
        /// `browser.test.onMessage` fires in the extension's contexts with `message` and the
        /// argument (JSON).
        case testMessage(message: String, argument: String)
        case expect(Expectation)
    }

    /// A check made at a step's time.
    public enum Expectation: Sendable {
        /// `expression` evaluated in `world` of `tab` equals `value` (canonical JSON compare).
        case value(tab: String?, world: String, expression: String, equals: String)
        /// The element matched by `selector` is (or is not) rendered and visible.
        case visible(tab: String, selector: String, visible: Bool)
        /// The trace has (or has not) a line containing `text`, optionally on `channel` and
        /// within a time window.
        case trace(text: String, channel: String?, from: VirtualTime?, to: VirtualTime?, present: Bool)
        /// storage.local (or session) equals `value`.
        case storage(area: String, equals: String)
        /// The dynamic rules equal `value`.
        case dynamicRules(equals: String)
        /// The extension has sent `message` with `browser.test.sendMessage` (and `argument`, when
        /// given, as canonical JSON) by now.
        case testMessage(message: String, argument: String?)
        /// The toolbar of `tab` shows the given icon / badge / title.
        case toolbar(tab: String, icon: String?, badge: String?, title: String?)
        /// The messages the extension has sent to native `application` so far, whole and in order:
        /// they equal `equals` (a JSON array, compared as JSON values) when given, and none
        /// contains any of `lacks`.
        case nativeMessages(application: String, equals: String?, lacks: [String])
    }
}
