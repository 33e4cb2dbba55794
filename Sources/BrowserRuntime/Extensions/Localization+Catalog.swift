import Foundation
import StrictJSON

/// One `_locales/<locale>/messages.json`, checked as the profile's browser checks it.
extension Localization {
    /// The entries of one messages.json, names lowercased; nil when the file does not exist.
    /// - Throws: ``ManifestError`` naming the file and the key of the first bad entry.
    static func catalog(at url: URL, profile: Browser.Profile) throws -> [String: Entry]? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        let bytes = [UInt8](data)
        do { _ = try JSONValue.parse(bytes) } catch {
            throw ManifestError(file: url.path, keyPath: error.path, reason: "not valid JSON: \(error.message)", line: error.line, column: error.column)
        }
        func fail(_ path: JSONPath, _ reason: String) -> ManifestError {
            let location = JSONLocator.locate(path, in: bytes)
            return ManifestError(file: url.path, keyPath: path.description, reason: reason, line: location?.line, column: location?.column)
        }
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw fail(.root, "the top level must be an object of messages")
        }
        var entries: [String: Entry] = [:]
        for key in root.keys.sorted() {
            let path = JSONPath([.key(key)])
            let name = key.lowercased()
            if profile == .chromium, !isMessageName(key) {
                throw fail(path, chrome("is not a message name: use ASCII letters, digits, '_' and '@'",
                                        "Name of a key \"\(name)\" is invalid. Only ASCII [a-z], [A-Z], [0-9] and \"_\" are allowed."))
            }
            guard let object = root[key] as? [String: Any] else {
                throw fail(path, chrome("must be an object with a \"message\" string", "Not a valid tree for key \(key)."))
            }
            guard let message = object["message"] as? String else {
                throw fail(path.appending(key: "message"), chrome("is required and must be a string", "There is no \"message\" element for key \(key)."))
            }
            if profile == .chromium, reservedNames.contains(name) {
                throw fail(path, chrome("is a predefined message and cannot be defined", "Reserved key \(name) found in message catalog."))
            }
            let placeholders = profile == .chromium
                ? try chromePlaceholders(object["placeholders"], key: key, path: path, fail: fail)
                : safariPlaceholders(object["placeholders"])
            switch profile {
            case .safari:
                entries[name] = Entry(message: message, placeholders: placeholders)
            case .chromium:
                // message_bundle.cc resolves named placeholders when it loads the catalog, and
                // refuses one the entry does not define.
                let resolved = chromeReplaceVariables(message, begin: "$", end: "$") { placeholders[$0.lowercased()] }
                if let undefined = resolved.undefined {
                    throw fail(path.appending(key: "message"), chrome("uses the placeholder $\(undefined)$, which 'placeholders' does not define",
                                                                       "Variable $\(undefined)$ used but not defined."))
                }
                entries[name] = Entry(message: resolved.text, placeholders: [:])
            }
        }
        return entries
    }

    /// The reserved names Chrome adds itself and refuses in a catalog (message_bundle.cc).
    static let reservedNames: Set<String> = ["@@ui_locale", "@@bidi_dir", "@@bidi_reversed_dir", "@@bidi_start_edge", "@@bidi_end_edge"]

    static func isMessageName(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy(isNameCharacter)
    }

    /// Safari takes what it can: placeholders with a string `content`, by lowercased name.
    static func safariPlaceholders(_ value: Any?) -> [String: String] {
        guard let object = value as? [String: Any] else { return [:] }
        var placeholders: [String: String] = [:]
        for (name, entry) in object {
            if let content = (entry as? [String: Any])?["content"] as? String { placeholders[name.lowercased()] = content }
        }
        return placeholders
    }

    /// Chrome checks every placeholder (message_bundle.cc `GetPlaceholders`).
    static func chromePlaceholders(_ value: Any?, key: String, path: JSONPath, fail: (JSONPath, String) -> ManifestError) throws -> [String: String] {
        guard let value else { return [:] }
        let placeholdersPath = path.appending(key: "placeholders")
        guard let object = value as? [String: Any] else {
            throw fail(placeholdersPath, chrome("must be an object of placeholders", "Not a valid \"placeholders\" element for key \(key)."))
        }
        var placeholders: [String: String] = [:]
        for name in object.keys.sorted() {
            let entryPath = placeholdersPath.appending(key: name)
            guard isMessageName(name) else {
                throw fail(entryPath, chrome("is not a placeholder name: use ASCII letters, digits, '_' and '@'",
                                             "Name of a key \"\(name)\" is invalid. Only ASCII [a-z], [A-Z], [0-9] and \"_\" are allowed."))
            }
            guard let entry = object[name] as? [String: Any] else {
                throw fail(entryPath, chrome("must be an object with a \"content\" string", "Invalid placeholder \(name) for key \(key)"))
            }
            guard let content = entry["content"] as? String else {
                throw fail(entryPath.appending(key: "content"), chrome("is required and must be a string", "Invalid \"content\" element for key \(key)."))
            }
            placeholders[name.lowercased()] = content
        }
        return placeholders
    }
}
