import BrowserRuntime
import Foundation
import TestSupport
import Testing
import WebRuntime

@Suite struct ManifestTests {
    func parse(_ json: String, files: Set<String> = ["bg.js", "c.js", "c.css", "icon.svg", "popup.html", "rules.json"]) throws -> Manifest {
        try Manifest.parse(Data(json.utf8), file: "manifest.json") { files.contains($0) }
    }

    @Test func sampleExtensionLoads() throws {
        let bundle = try Support.sampleExtension()
        let manifest = bundle.manifest
        #expect(manifest.name == "Sample Notes")
        #expect(manifest.background == .scripts(["background.js"]))
        #expect(manifest.contentScripts.first?.runAt == .documentEnd)
        #expect(manifest.contentScripts.first?.applies(to: "https://news.example/a") == true)
        #expect(manifest.contentScripts.first?.applies(to: "https://private.example/a") == false)
        #expect(manifest.action?.defaultIcon[16] == "images/icon.svg")
        #expect(bundle.url("/content.js") == "safari-web-extension://\(bundle.id)/content.js")
        #expect(bundle.id.count == 36)
    }

    /// Issue 22, point 7: what the runtime does not model loads, named once in the trace.
    @Test func unmodelledKeysAndPermissionsLoadWithOneWarningEach() throws {
        let manifest = try parse("""
            {"manifest_version": 3, "name": "X", "version": "1.0", "icons": {"16": "icon.svg"},
             "commands": {"go": {"suggested_key": {"default": "Ctrl+Shift+Y"}}}, "omnibox": {"keyword": "x"}, "options_page": "popup.html",
             "permissions": ["storage", "notifications", "contextMenus"]}
            """)
        #expect(manifest.unmodelled == ["manifest key 'commands'", "manifest key 'omnibox'", "permission 'contextMenus'", "permission 'notifications'"])
        // An options page is modelled (runtime.openOptionsPage opens it).
        #expect(manifest.options?.page == "popup.html" && manifest.options?.openInTab == true)
        #expect(try parse(#"{"manifest_version": 3, "name": "X", "version": "1", "permissions": ["storage", "tabs"]}"#).unmodelled.isEmpty)
        let browser = try Browser()
        let folder = Support.scratchRoot.appendingPathComponent("unmodelled-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try #"{"manifest_version": 3, "name": "Odd", "version": "1", "commands": {}, "permissions": ["notifications"]}"#
            .write(to: folder.appendingPathComponent("manifest.json"), atomically: true, encoding: .utf8)
        try browser.install(try ExtensionBundle(folder: folder))
        let warnings = browser.trace.events.map(\.text).filter { $0.hasPrefix("warning:") }
        #expect(warnings == ["warning: Odd: manifest key 'commands' is not modelled by this runtime (ignored)",
                             "warning: Odd: permission 'notifications' is not modelled by this runtime (ignored)"])
    }

    @Test func fullManifestParses() throws {
        let manifest = try parse("""
            {"manifest_version": 3, "name": "X", "version": "1.0.2.7",
             "background": {"service_worker": "bg.js"},
             "content_scripts": [{"matches": ["<all_urls>"], "js": ["c.js"], "css": ["c.css"], "run_at": "document_start", "all_frames": true, "match_about_blank": true}],
             "declarative_net_request": {"rule_resources": [{"id": "base", "path": "rules.json", "enabled": true}]},
             "permissions": ["storage", "declarativeNetRequest"], "host_permissions": ["*://*/*"],
             "optional_host_permissions": ["https://a.example/*"],
             "web_accessible_resources": [{"resources": ["icon.svg"], "matches": ["https://*/*"]}],
             "action": {"default_icon": "icon.svg", "default_popup": "popup.html", "default_title": "T"}}
            """)
        #expect(manifest.background == .serviceWorker("bg.js"))
        #expect(manifest.rulesets == [Manifest.Ruleset(id: "base", path: "rules.json", enabled: true)])
        #expect(manifest.contentScripts[0].allFrames && manifest.contentScripts[0].matchAboutBlank)
        #expect(manifest.has("declarativeNetRequest"))
        #expect(manifest.action?.defaultPopup == "popup.html")
    }

    @Test(arguments: [
        ("{", "", "not valid JSON"),
        ("[]", "", "the top level must be an object"),
        (#"{"manifest_version": 2, "name": "X", "version": "1"}"#, "manifest_version", "must be 3"),
        (#"{"manifest_version": 3, "version": "1"}"#, "name", "is required"),
        (#"{"manifest_version": 3, "name": "X", "version": "1.x"}"#, "version", "'1.x' must be one to four dot-separated integers"),
        (#"{"manifest_version": 3, "name": "X", "version": "1", "background": {"scripts": ["bg.js"], "persistent": true}}"#, "background.persistent", "must be false"),
        (#"{"manifest_version": 3, "name": "X", "version": "1", "background": {"page": "bg.html"}}"#, "background.page", "not supported in Manifest V3"),
        (#"{"manifest_version": 3, "name": "X", "version": "1", "background": {"service_worker": "missing.js"}}"#, "background.service_worker", "file 'missing.js' does not exist"),
        (#"{"manifest_version": 3, "name": "X", "version": "1", "content_scripts": [{"js": ["c.js"]}]}"#, "content_scripts[0].matches", "is required"),
        (#"{"manifest_version": 3, "name": "X", "version": "1", "content_scripts": [{"matches": ["https://a.example/*", "https://b.example"], "js": ["c.js"]}]}"#, "content_scripts[0].matches[1]", "missing path"),
        (#"{"manifest_version": 3, "name": "X", "version": "1", "content_scripts": [{"matches": ["<all_urls>"], "js": ["c.js"], "run_at": "document_late"}]}"#, "content_scripts[0].run_at", "'document_late' must be"),
        (#"{"manifest_version": 3, "name": "X", "version": "1", "content_scripts": [{"matches": ["<all_urls>"]}]}"#, "content_scripts[0]", "needs at least one file"),
        (#"{"manifest_version": 3, "name": "X", "version": "1", "content_scripts": [{"matches": ["<all_urls>"], "js": ["../c.js"]}]}"#, "content_scripts[0].js[0]", "not a path inside the extension"),
        (#"{"manifest_version": 3, "name": "X", "version": "1", "declarative_net_request": {"rule_resources": [{"id": "_x", "path": "rules.json"}]}}"#, "declarative_net_request.rule_resources[0].id", "must not start with '_'"),
        (#"{"manifest_version": 3, "name": "X", "version": "1", "declarative_net_request": {"rule_resources": [{"id": "a", "path": "rules.json"}, {"id": "a", "path": "rules.json"}]}}"#, "declarative_net_request.rule_resources[1].id", "used by another ruleset"),
        (#"{"manifest_version": 3, "name": "X", "version": "1", "host_permissions": ["https://*.b*.example/*"]}"#, "host_permissions[0]", "'*' in the host"),
        (#"{"manifest_version": 3, "name": "X", "version": "1", "action": {"default_icon": {"big": "icon.svg"}}}"#, "action.default_icon.big", "icon sizes"),
        (#"{"manifest_version": 3, "name": "X", "version": "1", "web_accessible_resources": ["icon.svg"]}"#, "web_accessible_resources[0]", "must be an object"),
    ])
    func invalidManifestsNameTheKeyPath(json: String, keyPath: String, reason: String) {
        do {
            _ = try parse(json)
            Issue.record("accepted an invalid manifest: \(json)")
        } catch let error as ManifestError {
            #expect(error.keyPath == keyPath)
            #expect(error.reason.contains(reason), "\(error)")
            #expect(error.line != nil, "a key found wrong is still named by line and column: \(error)")
            #expect(error.description.hasPrefix("manifest.json:1:"), "\(error)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test(arguments: [
        ("{\"manifest_version\": 3, \"name\": \"X\", \"version\": \"1\",}", 1, 52),
        ("{\"manifest_version\": 3, \"name\": \"X\", \"name\": \"Y\", \"version\": \"1\"}", 1, 38),
        ("{\n  \"manifest_version\": 3,\n  \"name\": \"X\",\n  \"version\": \"1\",\n}", 4, 17),
    ])
    func manifestsAreStrictJSON(json: String, line: Int, column: Int) {
        do {
            _ = try parse(json)
            Issue.record("accepted: \(json)")
        } catch let error as ManifestError {
            #expect(error.reason.hasPrefix("not valid JSON"), "\(error)")
            #expect(error.line == line && error.column == column, "\(error)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func missingFolderIsReported() {
        let error = #expect(throws: ManifestError.self) { try ExtensionBundle(folder: URL(fileURLWithPath: "/nonexistent/ext")) }
        #expect(error?.description.contains("cannot read the manifest") == true)
    }
}

@Suite struct MatchPatternTests {
    // Cases from MDN "Match patterns" (examples table) and Chromium's url_pattern semantics.
    @Test(arguments: [
        ("<all_urls>", "https://a.example/x", true), ("<all_urls>", "ftp://f.example/", true), ("<all_urls>", "safari-web-extension://id/x", false),
        ("*://*/*", "http://a.example/", true), ("*://*/*", "https://a.example/p?q=1", true), ("*://*/*", "ftp://a.example/", false), ("*://*/*", "file:///tmp/x", false),
        ("*://*.mozilla.org/*", "http://mozilla.org/", true), ("*://*.mozilla.org/*", "https://www.mozilla.org/", true),
        ("*://*.mozilla.org/*", "https://a.b.mozilla.org/x", true), ("*://*.mozilla.org/*", "https://notmozilla.org/", false),
        ("*://mozilla.org/", "http://mozilla.org/", true), ("*://mozilla.org/", "http://mozilla.org/path", false),
        ("https://*/path", "https://mozilla.org/path", true), ("https://*/path", "https://mozilla.org/path/", false),
        ("https://*/path", "https://mozilla.org/path?q", false), ("https://*/path/", "https://a.org/path/", true),
        ("https://mozilla.org/*", "https://mozilla.org/a/b?c=d#e", true), ("https://mozilla.org/*", "http://mozilla.org/", false),
("https://example.org/a*b", "https://example.org/axxb", true),
        ("https://example.org/a*b", "https://example.org/axxbc", false), ("https://EXAMPLE.org/*", "https://example.ORG/x", true),
        ("https://example.org:8443/*", "https://example.org:8443/x", true), ("file:///blah/*", "file:///blah/x.html", true),
    ])
    func matches(pattern: String, url: String, expected: Bool) throws {
        #expect(try MatchPattern(pattern).matches(url) == expected)
    }

    @Test(arguments: ["resource://path/", "https://mozilla.org", "https://mozilla.*.org/", "https://*zilla.org/", "http*://mozilla.org/", "https://", "example.org/*"])
    func invalidPatternsAreRejected(pattern: String) {
        #expect(throws: MatchPatternError.self) { try MatchPattern(pattern) }
    }
}
