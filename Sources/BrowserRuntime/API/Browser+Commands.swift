import Foundation
import WebRuntime

/// A keyboard command as the browser shows it (`commands.Command`).
struct BrowserCommand {
    let name: String
    let description: String
    /// The shortcut as `commands.getAll()` reports it ("" when none).
    let shortcut: String
}

extension Browser {
    /// The action command's name in Manifest V3: performing it clicks the toolbar button.
    static let actionCommand = "_execute_action"
    /// Keys both browsers name in a shortcut besides letters and digits.
    static let namedKeys: Set<String> = ["Comma", "Period", "Space", "Insert", "Delete", "Home", "End", "PageUp", "PageDown", "Up", "Down", "Left", "Right"]
    static let mediaKeys: Set<String> = ["MediaNextTrack", "MediaPlayPause", "MediaPrevTrack", "MediaStop"]

    /// `host`'s commands as the profile's browser reads the manifest. Safari
    /// (WebExtension.cpp, populateCommandsIfNeeded): the manifest's order, an entry without a
    /// description (other than the action's) or with a shortcut it cannot read left out, a
    /// string `suggested_key` ignored, the `mac` key first, then `ios`, then `default`, and an
    /// action command appended when the extension has an action and the manifest names none
    /// (described by the action's title, else the short name, else the name). Chrome
    /// (commands.cc): the action command first, the others by name, string or per-platform
    /// keys (`mac`, then `default`: this runtime's Chrome is on a Mac); an entry Chrome would
    /// refuse to load is left out here. At most 4 entries keep their shortcut in both.
    func commands(of host: ExtensionHost) -> [BrowserCommand] {
        let manifest = host.bundle.manifest
        guard let entries = manifest.commands ?? (manifest.action != nil && options.profile == .chromium ? [] : nil) else { return [] }
        let chromium = options.profile == .chromium
        var shortcuts = 0
        var made: [BrowserCommand] = []
        for entry in chromium ? entries.sorted(by: { $0.name < $1.name }) : entries {
            let isAction = entry.name == Self.actionCommand
            let description = entry.description ?? (isAction ? actionDescription(host) : "")
            if !isAction, description.isEmpty { continue }
            let written = chromium ? (entry.suggestedKeys["mac"] ?? entry.suggestedKeys["default"] ?? entry.suggestedKeys[""])
                : (entry.suggestedKeys["mac"] ?? entry.suggestedKeys["ios"] ?? entry.suggestedKeys["default"])
            var shortcut = ""
            if let written, !written.isEmpty {
                guard let parsed = Self.shortcut(written, chromium: chromium) else { continue }
                shortcuts += 1
                if shortcuts <= 4 { shortcut = parsed }
            }
            made.append(BrowserCommand(name: entry.name, description: chromium && isAction ? "" : description, shortcut: shortcut))
        }
        if manifest.action != nil, !made.contains(where: { $0.name == Self.actionCommand }) {
            let action = BrowserCommand(name: Self.actionCommand, description: chromium ? "" : actionDescription(host), shortcut: "")
            if chromium { made.insert(action, at: 0) } else { made.append(action) }
        } else if chromium, let index = made.firstIndex(where: { $0.name == Self.actionCommand }) {
            made.insert(made.remove(at: index), at: 0)
        }
        return made
    }

    private func actionDescription(_ host: ExtensionHost) -> String {
        host.bundle.manifest.action?.defaultTitle ?? host.bundle.manifest.name
    }

    /// A `suggested_key` as `commands.getAll()` shows it, nil when the browser cannot read it.
    /// Safari: modifiers Ctrl and Command (both ⌘), Alt, MacCtrl and Shift, at least one, in
    /// the order MacCtrl, Alt, Shift, Command ("MacCtrl+Shift+Y"; WebExtensionCommandCocoa.mm).
    /// Chrome on a Mac: Ctrl is Command, Ctrl/Alt/Command/MacCtrl required, shown as the
    /// menu shows it ("⇧⌘Y"), media keys alone.
    package static func shortcut(_ text: String, chromium: Bool) -> String? {
        let parts = text.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        guard let key = parts.last, !key.isEmpty else { return nil }
        var modifiers = Set<String>()
        for part in parts.dropLast() {
            switch part {
            case "Ctrl", "Command": modifiers.insert("Command")
            case "Alt", "MacCtrl", "Shift": modifiers.insert(part)
            default: return nil
            }
        }
        let isCharacter = key.count == 1 && key.unicodeScalars.allSatisfy { $0.isASCII && CharacterSet.alphanumerics.contains($0) }
        let isFunctionKey = key.hasPrefix("F") && Int(key.dropFirst()).map { (1...12).contains($0) } == true
        if chromium, mediaKeys.contains(key) { return modifiers.isEmpty ? key : nil }
        guard isCharacter || namedKeys.contains(key) || (!chromium && isFunctionKey) else { return nil }
        let order = ["MacCtrl", "Alt", "Shift", "Command"]
        if chromium {
            guard !modifiers.subtracting(["Shift"]).isEmpty else { return nil }
            let symbols = ["MacCtrl": "⌃", "Alt": "⌥", "Shift": "⇧", "Command": "⌘"]
            return order.filter(modifiers.contains).compactMap { symbols[$0] }.joined() + (isCharacter ? key.uppercased() : key)
        }
        guard !modifiers.isEmpty, parts.count <= 3 else { return nil }
        return (order.filter(modifiers.contains) + [isCharacter ? key.uppercased() : key]).joined(separator: "+")
    }

    func handleCommands(_ call: APICall) -> APIResult {
        switch call.method {
        case "getAll":
            return .json(JSONText.array(commands(of: call.context.host).map { command in
                JSONText.object([("description", JSONText.string(command.description)), ("name", JSONText.string(command.name)),
                                 ("shortcut", JSONText.string(command.shortcut))])
            }))
        default:
            return .error("commands.\(call.method) is not available")
        }
    }

    /// The user presses `name`'s shortcut with `tab` (the active tab by default) in front: the
    /// action command clicks the toolbar button (the popup, or action.onClicked); any other
    /// fires `commands.onCommand(name, tab)` in the extension's pages, with the gesture in force
    /// (Safari's test PerformCommandAndPermissionsRequest) and the background woken for it.
    /// - Throws: ``BrowserError`` when the extension has no such command.
    public func performCommand(_ name: String, of host: ExtensionHost, in tab: Tab? = nil) throws {
        guard commands(of: host).contains(where: { $0.name == name }) else {
            let known = commands(of: host).map(\.name)
            throw BrowserError("'\(host.bundle.manifest.name)' has no command '\(name)'" + (known.isEmpty ? "" : " (it has \(known.joined(separator: ", ")))"))
        }
        let target = tab ?? activeTab
        trace.record(.toolbar, at: target.map { "tab\($0.id)" } ?? "browser", "command \(name) of \(host.bundle.manifest.name)")
        if name == Self.actionCommand {
            _ = try clickAction(of: host, in: target)
            return
        }
        if let target { grantActiveTab(host, tab: target) }
        wakeIfNeeded(host, for: "commands.onCommand")
        for context in liveContexts(of: host) where context.kind.isPrivileged {
            context.dispatch("commands.onCommand", json: [JSONText.string(name)] + (target.map { [tabJSON($0, for: host)] } ?? []), userGesture: true)
        }
    }
}
