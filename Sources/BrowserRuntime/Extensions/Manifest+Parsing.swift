import Foundation
import StrictJSON
import WebRuntime

extension Manifest {
    /// Parses and validates manifest JSON. Every error names the key path.
    ///
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - file: the file name used in errors.
    ///   - fileExists: answers whether a path relative to the extension folder exists, so that
    ///     every file the manifest names is checked.
    /// - Throws: ``ManifestError``.
    public static func parse(_ data: Data, file: String, fileExists: @escaping (String) -> Bool) throws -> Manifest {
        try parse(data, file: file, fileExists: fileExists, localize: nil).manifest
    }

    /// Parses manifest JSON after localizing it: `localize` gets the top-level object as written
    /// and answers the extension's catalogs, whose `__MSG_name__` replacement is applied before
    /// any key is read (so the name in traces is the localized one).
    /// - Returns: the manifest, its localized text and the localization.
    /// - Throws: ``ManifestError`` from the manifest or from `localize`.
    static func parse(_ data: Data, file: String, fileExists: @escaping (String) -> Bool,
                      localize: (([String: Any]) throws -> Localization)?) throws -> (manifest: Manifest, text: [UInt8], localization: Localization?) {
        // Strict JSON first (StrictJSON): a trailing comma, a repeated key, a byte-order mark or
        // invalid UTF-8 is refused with its line and column, where Foundation would accept some.
        var bytes = [UInt8](data)
        do { _ = try JSONValue.parse(bytes) } catch {
            throw ManifestError(file: file, keyPath: error.path, reason: "not valid JSON: \(error.message)", line: error.line, column: error.column)
        }
        func object(_ bytes: [UInt8]) throws -> [String: Any] {
            let root: Any
            do {
                root = try JSONSerialization.jsonObject(with: Data(bytes))
            } catch {
                throw ManifestError(file: file, keyPath: "", reason: "not valid JSON: \(error.localizedDescription)")
            }
            guard let object = root as? [String: Any] else {
                let location = JSONLocator.locate("", in: bytes)
                throw ManifestError(file: file, keyPath: "", reason: "the top level must be an object", line: location?.line, column: location?.column)
            }
            return object
        }
        var top = try object(bytes)
        var localization: Localization?
        if let localize {
            let made = try localize(top)
            let localized = try made.localizedManifest(bytes, file: file)
            if localized != bytes {
                bytes = localized
                top = try object(bytes)
            }
            localization = made
        }
        var reader = KeyReader(file: file, fileExists: fileExists, bytes: bytes)
        do {
            return (try reader.manifest(top), bytes, localization)
        } catch var error as ManifestError where error.line == nil {
            if let location = JSONLocator.locate(error.keyPath, in: bytes) {
                error.line = location.line
                error.column = location.column
            }
            throw error
        }
    }
}

/// Reads manifest keys with their paths.
private struct KeyReader {
    let file: String
    let fileExists: (String) -> Bool
    /// The file's bytes, where a key's place in it is looked up (the order of `commands`).
    let bytes: [UInt8]

    /// The members of the object at `path`, in the order the file writes them.
    func orderedKeys(of path: String, _ keys: [String]) -> [String] {
        let placed = keys.map { key in (key, JSONLocator.locate(path + "." + key, in: bytes).map { ($0.line, $0.column) } ?? (Int.max, 0)) }
        return placed.sorted { $0.1 == $1.1 ? $0.0 < $1.0 : $0.1 < $1.1 }.map(\.0)
    }

    func fail(_ path: String, _ reason: String) -> ManifestError {
        ManifestError(file: file, keyPath: path, reason: reason)
    }

    func string(_ value: Any?, _ path: String) throws -> String {
        guard let text = value as? String else { throw fail(path, "must be a string") }
        return text
    }

    func strings(_ value: Any?, _ path: String, allowEmpty: Bool = true) throws -> [String] {
        guard let list = value as? [Any] else { throw fail(path, "must be an array of strings") }
        if !allowEmpty, list.isEmpty { throw fail(path, "must not be empty") }
        return try list.enumerated().map { try string($0.element, "\(path)[\($0.offset)]") }
    }

    func patterns(_ value: Any?, _ path: String, allowEmpty: Bool = true) throws -> [MatchPattern] {
        try strings(value, path, allowEmpty: allowEmpty).enumerated().map { index, text in
            do { return try MatchPattern(text) } catch let error as MatchPatternError {
                throw fail("\(path)[\(index)]", error.description)
            }
        }
    }

    func file(_ value: Any?, _ path: String) throws -> String {
        var name = try string(value, path)
        if name.hasPrefix("/") { name.removeFirst() }
        guard !name.isEmpty, !name.split(separator: "/").contains("..") else {
            throw fail(path, "'\(name)' is not a path inside the extension")
        }
        guard fileExists(name) else { throw fail(path, "file '\(name)' does not exist in the extension") }
        return name
    }

    func bool(_ value: Any?, _ path: String, default fallback: Bool) throws -> Bool {
        guard let value else { return fallback }
        guard let flag = value as? Bool else { throw fail(path, "must be true or false") }
        return flag
    }

    mutating func manifest(_ object: [String: Any]) throws -> Manifest {
        guard let version = object["manifest_version"] as? Int else {
            throw fail("manifest_version", object["manifest_version"] == nil ? "is required" : "must be a number")
        }
        guard version == 3 else { throw fail("manifest_version", "must be 3 (this runtime loads Manifest V3 extensions), got \(version)") }
        guard let name = object["name"] as? String, !name.isEmpty else { throw fail("name", "is required and must be a non-empty string") }
        guard let versionText = object["version"] as? String else { throw fail("version", "is required and must be a string such as \"1.0\"") }
        let parts = versionText.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) else {
            throw fail("version", "'\(versionText)' must be one to four dot-separated integers")
        }
        var manifest = Manifest(
            manifestVersion: version, name: name, version: versionText,
            description: object["description"] as? String, background: nil, contentScripts: [], rulesets: [],
            permissions: [], hostPermissions: [], optionalHostPermissions: [], webAccessibleResources: [], action: nil)
        if let background = object["background"] {
            manifest.background = try self.background(background)
            // Safari reads `type` only for "module" (WebExtension.cpp compares it with that value).
            if let type = (background as? [String: Any])?["type"] {
                manifest.backgroundUsesModules = try string(type, "background.type") == "module"
            }
        }
        if let entries = object["content_scripts"] {
            guard let list = entries as? [Any] else { throw fail("content_scripts", "must be an array") }
            manifest.contentScripts = try list.enumerated().map { try contentScript($0.element, "content_scripts[\($0.offset)]") }
        }
        if let dnr = object["declarative_net_request"] {
            guard let dnr = dnr as? [String: Any] else { throw fail("declarative_net_request", "must be an object") }
            manifest.rulesets = try rulesets(dnr["rule_resources"] ?? [Any](), "declarative_net_request.rule_resources")
        }
        if let permissions = object["permissions"] { manifest.permissions = Set(try strings(permissions, "permissions")) }
        if let hosts = object["host_permissions"] { manifest.hostPermissions = try patterns(hosts, "host_permissions") }
        if let optional = object["optional_permissions"] { manifest.optionalPermissions = Set(try strings(optional, "optional_permissions")).subtracting(manifest.permissions) }
        if let hosts = object["optional_host_permissions"] { manifest.optionalHostPermissions = try patterns(hosts, "optional_host_permissions") }
        if let resources = object["web_accessible_resources"] {
            guard let list = resources as? [Any] else { throw fail("web_accessible_resources", "must be an array of objects (Manifest V3)") }
            manifest.webAccessibleResources = try list.enumerated().map { index, entry in
                let path = "web_accessible_resources[\(index)]"
                guard let entry = entry as? [String: Any] else { throw fail(path, "must be an object with 'resources' and 'matches'") }
                return Manifest.WebAccessibleResource(
                    resources: try strings(entry["resources"], path + ".resources"),
                    matches: try patterns(entry["matches"] ?? [Any](), path + ".matches"))
            }
        }
        if let connectable = object["externally_connectable"] {
            guard let entry = connectable as? [String: Any] else { throw fail("externally_connectable", "must be an object with 'matches'") }
            manifest.externallyConnectable = try patterns(entry["matches"] ?? [Any](), "externally_connectable.matches")
        }
        if let action = object["action"] { manifest.action = try self.action(action) }
        if let commands = object["commands"] as? [String: Any] {
            // Entries are read as written; what each browser makes of them (shortcuts, the
            // action command) is Browser+Commands'. The order is the file's, as Safari lists them.
            manifest.commands = orderedKeys(of: "commands", Array(commands.keys)).compactMap { name in
                guard let entry = commands[name] as? [String: Any] else { return nil }
                var keys: [String: String] = [:]
                if let text = entry["suggested_key"] as? String { keys[""] = text }
                if let map = entry["suggested_key"] as? [String: Any] { for (platform, key) in map { if let key = key as? String { keys[platform] = key } } }
                return Manifest.Command(name: name, description: entry["description"] as? String, suggestedKeys: keys)
            }
        }
        if let options = object["options_ui"] {
            guard let options = options as? [String: Any] else { throw fail("options_ui", "must be an object with 'page'") }
            manifest.options = Manifest.OptionsPage(page: try file(options["page"], "options_ui.page"),
                                                    openInTab: try bool(options["open_in_tab"], "options_ui.open_in_tab", default: false))
        } else if let page = object["options_page"] {
            manifest.options = Manifest.OptionsPage(page: try file(page, "options_page"), openInTab: true)
        }
        manifest.unmodelled = object.keys.filter { !Manifest.modelledKeys.contains($0) }.sorted().map { "manifest key '\($0)'" }
            + manifest.permissions.filter { !Manifest.modelledPermissions.contains($0) }.sorted().map { "permission '\($0)'" }
        return manifest
    }

    func background(_ value: Any) throws -> Manifest.Background {
        guard let object = value as? [String: Any] else { throw fail("background", "must be an object") }
        if let worker = object["service_worker"] {
            guard object["scripts"] == nil else {
                throw fail("background", "give either 'service_worker' or 'scripts', not both")
            }
            return .serviceWorker(try file(worker, "background.service_worker"))
        }
        if let scripts = object["scripts"] {
            // Safari accepts a non-persistent background page in Manifest V3; a persistent one is
            // Manifest V2 only.
            if try bool(object["persistent"], "background.persistent", default: false) {
                throw fail("background.persistent", "must be false: Manifest V3 has no persistent background pages")
            }
            let list = try strings(scripts, "background.scripts", allowEmpty: false)
            return .scripts(try list.enumerated().map { try file($0.element, "background.scripts[\($0.offset)]") })
        }
        if object["page"] != nil { throw fail("background.page", "is not supported in Manifest V3; use 'scripts' or 'service_worker'") }
        throw fail("background", "needs 'service_worker' or 'scripts'")
    }

    func contentScript(_ value: Any, _ path: String) throws -> Manifest.ContentScriptEntry {
        guard let object = value as? [String: Any] else { throw fail(path, "must be an object") }
        guard object["matches"] != nil else { throw fail(path + ".matches", "is required") }
        let matches = try patterns(object["matches"], path + ".matches", allowEmpty: false)
        let excludes = try patterns(object["exclude_matches"] ?? [Any](), path + ".exclude_matches")
        let js = try strings(object["js"] ?? [Any](), path + ".js").enumerated().map { try file($0.element, "\(path).js[\($0.offset)]") }
        let css = try strings(object["css"] ?? [Any](), path + ".css").enumerated().map { try file($0.element, "\(path).css[\($0.offset)]") }
        guard !js.isEmpty || !css.isEmpty else { throw fail(path, "needs at least one file in 'js' or 'css'") }
        var runAt = ContentScript.RunAt.documentIdle
        if let value = object["run_at"] {
            let text = try string(value, path + ".run_at")
            guard let parsed = ContentScript.RunAt(rawValue: text) else {
                throw fail(path + ".run_at", "'\(text)' must be document_start, document_end or document_idle")
            }
            runAt = parsed
        }
        var entry = Manifest.ContentScriptEntry(
            matches: matches, excludeMatches: excludes, js: js, css: css, runAt: runAt,
            allFrames: try bool(object["all_frames"], path + ".all_frames", default: false),
            matchAboutBlank: try bool(object["match_about_blank"], path + ".match_about_blank", default: false))
        if let world = object["world"] {
            let text = try string(world, path + ".world")
            guard text == "ISOLATED" || text == "MAIN" else { throw fail(path + ".world", "'\(text)' must be ISOLATED or MAIN") }
            entry.world = text
        }
        return entry
    }

    func rulesets(_ value: Any, _ path: String) throws -> [Manifest.Ruleset] {
        guard let list = value as? [Any] else { throw fail(path, "must be an array") }
        var seen: Set<String> = []
        return try list.enumerated().map { index, entry in
            let entryPath = "\(path)[\(index)]"
            guard let object = entry as? [String: Any] else { throw fail(entryPath, "must be an object") }
            let id = try string(object["id"], entryPath + ".id")
            // Chromium: ruleset ids must be non-empty, unique and must not start with '_'.
            guard !id.isEmpty, !id.hasPrefix("_") else { throw fail(entryPath + ".id", "'\(id)' must be non-empty and must not start with '_'") }
            guard seen.insert(id).inserted else { throw fail(entryPath + ".id", "'\(id)' is used by another ruleset") }
            return Manifest.Ruleset(
                id: id, path: try file(object["path"], entryPath + ".path"),
                enabled: try bool(object["enabled"], entryPath + ".enabled", default: false))
        }
    }

    func action(_ value: Any) throws -> Manifest.Action {
        guard let object = value as? [String: Any] else { throw fail("action", "must be an object") }
        var icons: [Int: String] = [:]
        if let icon = object["default_icon"] {
            if icon is String {
                icons[0] = try file(icon, "action.default_icon")
            } else if let map = icon as? [String: Any] {
                for key in map.keys.sorted() {
                    guard let size = Int(key), size > 0 else { throw fail("action.default_icon.\(key)", "keys must be icon sizes in pixels") }
                    icons[size] = try file(map[key], "action.default_icon.\(key)")
                }
            } else {
                throw fail("action.default_icon", "must be a path or an object of size -> path")
            }
        }
        return Manifest.Action(
            defaultIcon: icons,
            defaultPopup: try object["default_popup"].map { try file($0, "action.default_popup") },
            defaultTitle: try object["default_title"].map { try string($0, "action.default_title") })
    }
}
