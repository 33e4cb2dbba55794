import BlockerCore
import StrictJSON

/// The files a Manifest V3 `manifest.json` names, each with its JSON key path.
struct ManifestFiles {
    struct Reference: Equatable {
        /// `background.service_worker`, `content_scripts[0].js[1]`, ...
        let keyPath: String
        /// The path relative to the extension folder.
        let path: String
    }

    /// Every named file; glob patterns (web_accessible_resources) are skipped.
    let references: [Reference]
    /// The DNR rule resources: (key path of `path`, id, path).
    let ruleResources: [(keyPath: String, id: String, path: String)]

    /// Reads the manifest's file references.
    /// - Throws: `InputError` naming the manifest and the key path of a malformed entry.
    init(manifest value: JSONValue, file: String) throws {
        guard case .object(let root) = value else {
            throw InputError(file: file, position: "top level", message: "the manifest must be a json object")
        }
        var references: [Reference] = []
        var resources: [(String, String, String)] = []
        func add(_ value: JSONValue?, _ keyPath: String) throws {
            guard let value else { return }
            guard case .string(let path) = value, !path.isEmpty else {
                throw InputError(file: file, position: keyPath, message: "expected a file path string")
            }
            if path.contains("*") { return }
            references.append(Reference(keyPath: keyPath, path: path.hasPrefix("/") ? String(path.dropFirst()) : path))
        }
        func addList(_ value: JSONValue?, _ keyPath: String) throws {
            guard let value else { return }
            guard case .array(let list) = value else { throw InputError(file: file, position: keyPath, message: "expected a list of file paths") }
            for (index, item) in list.enumerated() { try add(item, "\(keyPath)[\(index)]") }
        }
        func addIcons(_ value: JSONValue?, _ keyPath: String) throws {
            if case .string = value { return try add(value, keyPath) }
            guard case .object(let icons)? = value else { return }
            for key in icons.keys.sorted() { try add(icons[key], "\(keyPath).\(key)") }
        }
        if case .object(let background)? = root["background"] {
            try add(background["service_worker"], "background.service_worker")
            try addList(background["scripts"], "background.scripts")
            try add(background["page"], "background.page")
        }
        if let scripts = Self.objects(root["content_scripts"]) {
            for (index, entry) in scripts.enumerated() {
                try addList(entry["js"], "content_scripts[\(index)].js")
                try addList(entry["css"], "content_scripts[\(index)].css")
            }
        }
        for key in ["action", "browser_action", "page_action"] {
            if case .object(let action)? = root[key] {
                try add(action["default_popup"], "\(key).default_popup")
                try addIcons(action["default_icon"], "\(key).default_icon")
            }
        }
        try addIcons(root["icons"], "icons")
        try add(root["options_page"], "options_page")
        if case .object(let options)? = root["options_ui"] { try add(options["page"], "options_ui.page") }
        if let accessible = Self.objects(root["web_accessible_resources"]) {
            for (index, entry) in accessible.enumerated() { try addList(entry["resources"], "web_accessible_resources[\(index)].resources") }
        }
        if case .object(let dnr)? = root["declarative_net_request"], let list = Self.objects(dnr["rule_resources"]) {
            for (index, entry) in list.enumerated() {
                let keyPath = "declarative_net_request.rule_resources[\(index)].path"
                try add(entry["path"], keyPath)
                guard case .string(let id)? = entry["id"], case .string(let path)? = entry["path"] else {
                    throw InputError(file: file, position: "declarative_net_request.rule_resources[\(index)]", message: "needs string 'id' and 'path'")
                }
                resources.append((keyPath, id, path.hasPrefix("/") ? String(path.dropFirst()) : path))
            }
        }
        self.references = references
        self.ruleResources = resources
    }

    /// The members of each element when `value` is a list of objects only (other shapes
    /// are not this tool's to judge; the extension's own checks see them).
    private static func objects(_ value: JSONValue?) -> [[String: JSONValue]]? {
        guard case .array(let list) = value else { return nil }
        var objects: [[String: JSONValue]] = []
        for item in list {
            guard case .object(let members) = item else { return nil }
            objects.append(members)
        }
        return objects
    }
}
