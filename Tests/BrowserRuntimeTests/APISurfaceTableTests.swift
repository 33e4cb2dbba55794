import BrowserRuntime
import Foundation
import TestSupport
import Testing
import WebRuntime

/// The README's API table (issue 23, point 4) says what the runtime has: every method and event
/// of the API surface is listed as modelled or partial, nothing listed as absent is there, and a
/// background with every permission has exactly what the table says.
@Suite struct APISurfaceTableTests {
    struct Row {
        let name: String
        let state: String
        let note: String
        /// Notes that begin "chromium profile only" mark what only Chrome has.
        var chromiumOnly: Bool { note.hasPrefix("chromium profile only") }
    }

    static func rows() throws -> [Row] {
        let readme = try String(contentsOf: Support.fixtures.deletingLastPathComponent().appendingPathComponent("README.md"), encoding: .utf8)
        guard let start = readme.range(of: "<!-- api-surface-table"), let end = readme.range(of: "<!-- end api-surface-table -->") else { return [] }
        return readme[start.upperBound..<end.lowerBound].split(separator: "\n").compactMap { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4, cells[1].hasPrefix("`"), cells[1].hasSuffix("`") else { return nil }
            return Row(name: String(cells[1].dropFirst().dropLast()), state: cells[2], note: cells[3])
        }
    }

    /// What browser-api.js adds to every namespace table entry.
    static let providedByTheBindings: Set<String> = ["runtime.id", "runtime.lastError", "runtime.connect", "runtime.connectNative", "tabs.connect", "test.*",
                                                     "storage.local.QUOTA_BYTES", "storage.sync.QUOTA_BYTES", "storage.session.QUOTA_BYTES",
                                                     "extension.getURL", "extension.getViews", "extension.getBackgroundPage", "extension.inIncognitoContext",
                                                     "declarativeNetRequest.MAX_NUMBER_OF_ENABLED_STATIC_RULESETS", "declarativeNetRequest.MAX_NUMBER_OF_STATIC_RULESETS",
                                                     "declarativeNetRequest.MAX_NUMBER_OF_DYNAMIC_AND_SESSION_RULES"]

    @Test func theTableListsEverythingTheSurfaceHasAndNothingElse() throws {
        let rows = try Self.rows()
        #expect(rows.count > 150)
        #expect(Set(rows.map(\.state)).isSubset(of: ["modelled", "partial", "absent"]), "\(Set(rows.map(\.state)))")
        #expect(Set(rows.map(\.name)).count == rows.count, "a row is listed twice")
        var surface = Set<String>()
        for namespace in APISurface.table {
            for method in namespace.methods { surface.insert(namespace.name + "." + method) }
            for event in namespace.events { surface.insert(namespace.name + "." + event) }
        }
        let present = Set(rows.filter { $0.state != "absent" && !$0.chromiumOnly }.map(\.name))
        #expect(surface.subtracting(present).isEmpty, "in the surface but not in the table as present: \(surface.subtracting(present).sorted())")
        #expect(present.subtracting(surface).subtracting(Self.providedByTheBindings).isEmpty,
                "in the table as present but not in the surface: \(present.subtracting(surface).subtracting(Self.providedByTheBindings).sorted())")
    }

    /// (With a `commands` key too: Safari gives `commands` only then.)
    @Test(arguments: [Browser.Profile.safari, .chromium])
    func aBackgroundWithEveryPermissionHasWhatTheTableSays(_ profile: Browser.Profile) throws {
        let browser = try Support.emptyBrowser(profile: profile)
        let folder = Support.scratchRoot.appendingPathComponent("surface-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try #"{"manifest_version": 3, "name": "All", "version": "1", "background": {"service_worker": "w.js"}, "commands": {}, "permissions": ["storage", "alarms", "scripting", "webNavigation", "declarativeNetRequest", "declarativeNetRequestFeedback", "nativeMessaging", "tabs", "contextMenus", "menus", "webRequest", "cookies"]}"#
            .write(to: folder.appendingPathComponent("manifest.json"), atomically: true, encoding: .utf8)
        try "".write(to: folder.appendingPathComponent("w.js"), atomically: true, encoding: .utf8)
        let host = try browser.install(try ExtensionBundle(folder: folder))
        let worker = try #require(host.backgroundWorld)
        // The Safari profile is the table's; the chromium profile is checked for what only it has.
        for row in try Self.rows() where row.name != "test.*" && row.name != "runtime.lastError" && (profile == .safari || row.chromiumOnly) {
            let path = row.name.split(separator: ".").joined(separator: "?.")
            let type = try Support.eval(worker, "typeof chrome?.\(path)") as? String
            if row.state == "absent" || (row.chromiumOnly && profile == .safari) {
                #expect(type == "undefined", "\(row.name) is listed as absent but is \(type ?? "?")")
            } else {
                #expect(type != "undefined", "\(row.name) is listed as \(row.state) but is undefined")
            }
        }
    }

    @Test func declarativeNetRequestsConstantsAreEachBrowsers() throws {
        for profile in [Browser.Profile.safari, .chromium] {
            let browser = try Support.emptyBrowser(profile: profile)
            let folder = try Support.extensionFolder("dnr-constants", [
                "manifest.json": #"{"manifest_version": 3, "name": "C", "version": "1", "background": {"service_worker": "w.js"}, "permissions": ["declarativeNetRequest"]}"#,
                "w.js": "",
            ])
            let host = try browser.install(try ExtensionBundle(folder: folder))
            let values = try Support.eval(try #require(host.backgroundWorld), """
                const d = chrome.declarativeNetRequest;
                [d.MAX_NUMBER_OF_STATIC_RULESETS, d.MAX_NUMBER_OF_ENABLED_STATIC_RULESETS, d.MAX_NUMBER_OF_DYNAMIC_AND_SESSION_RULES,
                 d.MAX_NUMBER_OF_DYNAMIC_RULES, d.GUARANTEED_MINIMUM_STATIC_RULES, d.SESSION_RULESET_ID].map(String).join()
                """) as? String
            #expect(values == (profile == .chromium ? "100,50,5000,30000,30000,_session" : "100,50,5000,undefined,undefined,undefined"))
        }
    }
}
