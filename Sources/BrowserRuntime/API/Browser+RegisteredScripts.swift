import WebRuntime

/// A content script `scripting.registerContentScripts` added: an entry like the manifest's,
/// with its id and whether it outlives a restart.
struct RegisteredScript {
    let id: String
    var entry: Manifest.ContentScriptEntry
    var persistAcrossSessions: Bool
}

extension Browser {
    /// register/get/update/unregisterContentScripts. The shape of each script was checked in the
    /// caller (browser-api.js, WebKit's parseRegisteredContentScripts for Safari); here what the
    /// browser itself refuses, in each one's words — Safari's from
    /// WebExtensionContextAPIScriptingCocoa.mm ("Invalid call to
    /// scripting.registerContentScripts(). Duplicate ID 'x'.", "Invalid resource 'x'.", "No
    /// script with ID 'x'."), Chrome's from scripting_api.cc ("Duplicate script ID 'x'",
    /// "Nonexistent script ID 'x'", "Could not load file: 'x'."). A registration applies to pages
    /// loaded afterwards; one with persistAcrossSessions false ends at a restart.
    func handleRegisteredScripts(_ call: APICall) -> APIResult {
        let host = call.context.host
        let chromium = options.profile == .chromium
        let api = "scripting.\(call.method)()"
        func safari(_ text: String) -> APIResult { .error("Invalid call to \(api). \(text)") }
        switch call.method {
        case "registerContentScripts", "updateContentScripts":
            let updating = call.method == "updateContentScripts"
            var changed = host.registeredScripts
            var seen: Set<String> = []
            for script in JSONText.elements(call.argument(0) ?? "[]") {
                let fields = JSONText.fields(script)
                let id = fields["id"].map(JSONText.decodeString) ?? ""
                if chromium {
                    // scripting_api.cc's checks (Safari made them in the caller).
                    if id.isEmpty { return .error("Script's ID must not be empty") }
                    if id.hasPrefix("_") { return .error("Script's ID '\(id)' must not start with '_'") }
                    if !updating, JSONText.elements(fields["matches"] ?? "[]").isEmpty { return .error("Script with ID '\(id)' must specify 'matches'") }
                    if !updating, JSONText.elements(fields["js"] ?? "[]").isEmpty, JSONText.elements(fields["css"] ?? "[]").isEmpty {
                        return .error("Script with ID '\(id)' must specify at least one js or css to inject.")
                    }
                }
                let existing = changed.firstIndex { $0.id == id }
                if updating {
                    guard existing != nil else { return chromium ? .error("Nonexistent script ID '\(id)'") : safari("No existing script with ID '\(id)'.") }
                } else if existing != nil || seen.contains(id) {
                    return chromium ? .error("Duplicate script ID '\(id)'") : safari("Duplicate ID '\(id)'.")
                }
                seen.insert(id)
                let strings = { (key: String) in fields[key].map { JSONText.elements($0).map(JSONText.decodeString) } }
                var entry = existing.map { changed[$0].entry } ?? Manifest.ContentScriptEntry(
                    matches: [], excludeMatches: [], js: [], css: [], runAt: .documentIdle, allFrames: false, matchAboutBlank: false)
                for file in (strings("js") ?? []) + (strings("css") ?? []) where (try? host.bundle.text(file)) == nil {
                    return chromium ? .error("Could not load file: '\(file)'.") : safari("Invalid resource '\(file)'.")
                }
                do {
                    if let matches = strings("matches") { entry.matches = try matches.map(MatchPattern.init) }
                    if let excludes = strings("excludeMatches") { entry.excludeMatches = try excludes.map(MatchPattern.init) }
                } catch let error as MatchPatternError {
                    return chromium ? .error("Script with ID '\(id)' has invalid value for matches: \(error.reason)")
                        : safari("Script with ID '\(id)' has an invalid match pattern '\(error.pattern)'.")
                } catch {}
                if let js = strings("js") { entry.js = js }
                if let css = strings("css") { entry.css = css }
                if let runAt = fields["runAt"].map(JSONText.decodeString).flatMap(ContentScript.RunAt.init) { entry.runAt = runAt }
                if let allFrames = fields["allFrames"] { entry.allFrames = allFrames == "true" }
                if let world = fields["world"].map(JSONText.decodeString) { entry.world = world.uppercased() == "MAIN" ? "MAIN" : "ISOLATED" }
                let persists = fields["persistAcrossSessions"].map { $0 == "true" } ?? (existing.map { changed[$0].persistAcrossSessions } ?? true)
                let made = RegisteredScript(id: id, entry: entry, persistAcrossSessions: persists)
                if let existing { changed[existing] = made } else { changed.append(made) }
            }
            host.registeredScripts = changed
            trace.record(.api, at: "browser", "registered content scripts of \(host.bundle.manifest.name): \(changed.map(\.id).joined(separator: ", "))")
            return .undefined
        case "getRegisteredContentScripts":
            let ids = JSONText.fields(call.argument(0))["ids"].map { Set(JSONText.elements($0).map(JSONText.decodeString)) }
            return .json(JSONText.array(host.registeredScripts.filter { ids?.contains($0.id) ?? true }.map(registeredScriptJSON)))
        case "unregisterContentScripts":
            let ids = JSONText.fields(call.argument(0))["ids"].map { JSONText.elements($0).map(JSONText.decodeString) }
            for id in ids ?? [] where !host.registeredScripts.contains(where: { $0.id == id }) {
                return chromium ? .error("Nonexistent script ID '\(id)'") : safari("No script with ID '\(id)'.")
            }
            host.registeredScripts.removeAll { ids?.contains($0.id) ?? true }
            return .undefined
        default:
            return .error("scripting.\(call.method) is not available")
        }
    }

    /// `scripting.RegisteredContentScript` as the browser answers it.
    func registeredScriptJSON(_ script: RegisteredScript) -> String {
        let entry = script.entry
        var fields: [(String, String)] = [("allFrames", entry.allFrames ? "true" : "false"), ("id", JSONText.string(script.id)),
                                          ("matches", JSONText.array(entry.matches.map { JSONText.string($0.text) })),
                                          ("persistAcrossSessions", script.persistAcrossSessions ? "true" : "false"),
                                          ("runAt", JSONText.string(entry.runAt.rawValue)), ("world", JSONText.string(entry.world))]
        if !entry.js.isEmpty { fields.append(("js", JSONText.array(entry.js.map(JSONText.string)))) }
        if !entry.css.isEmpty { fields.append(("css", JSONText.array(entry.css.map(JSONText.string)))) }
        if !entry.excludeMatches.isEmpty { fields.append(("excludeMatches", JSONText.array(entry.excludeMatches.map { JSONText.string($0.text) }))) }
        return JSONText.object(fields.sorted { $0.0 < $1.0 })
    }
}
