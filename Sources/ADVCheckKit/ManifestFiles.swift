import BlockerCore
import Foundation

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
    init(manifest object: Any, file: String) throws {
        guard let root = object as? [String: Any] else {
            throw InputError(file: file, position: "top level", message: "the manifest must be a json object")
        }
        var references: [Reference] = []
        var resources: [(String, String, String)] = []
        func add(_ value: Any?, _ keyPath: String) throws {
            guard let value else { return }
            guard let path = value as? String, !path.isEmpty else {
                throw InputError(file: file, position: keyPath, message: "expected a file path string")
            }
            if path.contains("*") { return }
            references.append(Reference(keyPath: keyPath, path: path.hasPrefix("/") ? String(path.dropFirst()) : path))
        }
        func addList(_ value: Any?, _ keyPath: String) throws {
            guard let value else { return }
            guard let list = value as? [Any] else { throw InputError(file: file, position: keyPath, message: "expected a list of file paths") }
            for (index, item) in list.enumerated() { try add(item, "\(keyPath)[\(index)]") }
        }
        func addIcons(_ value: Any?, _ keyPath: String) throws {
            if let single = value as? String { return try add(single, keyPath) }
            guard let icons = value as? [String: Any] else { return }
            for key in icons.keys.sorted() { try add(icons[key], "\(keyPath).\(key)") }
        }
        if let background = root["background"] as? [String: Any] {
            try add(background["service_worker"], "background.service_worker")
            try addList(background["scripts"], "background.scripts")
            try add(background["page"], "background.page")
        }
        if let scripts = root["content_scripts"] as? [[String: Any]] {
            for (index, entry) in scripts.enumerated() {
                try addList(entry["js"], "content_scripts[\(index)].js")
                try addList(entry["css"], "content_scripts[\(index)].css")
            }
        }
        for key in ["action", "browser_action", "page_action"] {
            if let action = root[key] as? [String: Any] {
                try add(action["default_popup"], "\(key).default_popup")
                try addIcons(action["default_icon"], "\(key).default_icon")
            }
        }
        try addIcons(root["icons"], "icons")
        try add(root["options_page"], "options_page")
        if let options = root["options_ui"] as? [String: Any] { try add(options["page"], "options_ui.page") }
        if let accessible = root["web_accessible_resources"] as? [[String: Any]] {
            for (index, entry) in accessible.enumerated() { try addList(entry["resources"], "web_accessible_resources[\(index)].resources") }
        }
        if let dnr = root["declarative_net_request"] as? [String: Any], let list = dnr["rule_resources"] as? [[String: Any]] {
            for (index, entry) in list.enumerated() {
                let keyPath = "declarative_net_request.rule_resources[\(index)].path"
                try add(entry["path"], keyPath)
                guard let id = entry["id"] as? String, let path = entry["path"] as? String else {
                    throw InputError(file: file, position: "declarative_net_request.rule_resources[\(index)]", message: "needs string 'id' and 'path'")
                }
                resources.append((keyPath, id, path.hasPrefix("/") ? String(path.dropFirst()) : path))
            }
        }
        self.references = references
        self.ruleResources = resources
    }
}
