import Foundation
import StrictJSON

extension Localization {
    /// manifest.json with `__MSG_name__` replaced as the profile's browser does before it reads
    /// the manifest: Safari in every string value, however deep (WebKit's
    /// WebExtensionLocalization `localizedJSONforJSON`; keys are left alone), Chrome only in the
    /// fields it localizes and only for a localized extension (Chromium's
    /// extension_l10n_util.cc `LocalizeManifest`), refusing a name it does not know. Everything
    /// else (key order, spacing) stays as written, so errors still point into the file.
    /// - Throws: ``ManifestError`` naming the field (Chrome: a name no catalog defines).
    func localizedManifest(_ bytes: [UInt8], file: String) throws -> [UInt8] {
        guard bytes.count >= 6, String(decoding: bytes, as: UTF8.self).contains("__MSG_") else { return bytes }
        if profile == .chromium, !isActive { return bytes }
        let dictionary = profile == .chromium ? chromeDictionary(.manifest) : [:]
        return try Self.rewritingStrings(bytes) { path, value in
            guard value.contains("__MSG_") else { return nil }
            switch profile {
            case .safari:
                return safariLocalize(value, use: .manifest)
            case .chromium:
                guard Self.chromeLocalizes(path.components) else { return nil }
                let result = Self.chromeReplaceVariables(value, begin: "__MSG_", end: "__") { dictionary[$0.lowercased()] }
                if let undefined = result.undefined {
                    let location = JSONLocator.locate(path, in: bytes)
                    throw ManifestError(file: file, keyPath: path.description,
                                        reason: Self.chrome("names a message no catalog defines", "Variable __MSG_\(undefined)__ used but not defined."),
                                        line: location?.line, column: location?.column)
                }
                return result.text
            }
        }
    }

    /// What `runtime.getManifest()` shows of a localized extension in Chrome: the manifest with
    /// `current_locale`, the locale it was localized for (extension_l10n_util.cc sets it so it
    /// can localize again when the browser's language changes).
    func manifestForScripts(_ text: String) -> String {
        guard profile == .chromium, isActive, let close = text.lastIndex(of: "}") else { return text }
        let body = text[..<close].trimmingCharacters(in: .whitespacesAndNewlines)
        let separator = body.hasSuffix("{") ? "" : ","
        return body + separator + "\"current_locale\":" + JSONText.string(Self.chromeUILocale) + "}"
    }

    /// True for the manifest fields Chrome localizes (LocalizeManifest): name, short_name,
    /// description, the actions' default_title, omnibox.keyword, file_browser_handlers[].default_title,
    /// input_components[].name and .description, app.launch.local_path and .web_url,
    /// commands.<name>.description, chrome_settings_overrides.search_provider.* (alternate_urls
    /// as a list), .homepage and .startup_pages[].
    static func chromeLocalizes(_ path: [JSONPath.Component]) -> Bool {
        func key(_ index: Int) -> String? {
            guard index < path.count, case let .key(name) = path[index] else { return nil }
            return name
        }
        func isIndex(_ index: Int) -> Bool {
            guard index < path.count, case .index = path[index] else { return false }
            return true
        }
        let first = key(0)
        switch path.count {
        case 1:
            return ["name", "short_name", "description"].contains(first)
        case 2:
            if ["browser_action", "page_action", "action"].contains(first) { return key(1) == "default_title" }
            if first == "omnibox" { return key(1) == "keyword" }
            if first == "chrome_settings_overrides" { return key(1) == "homepage" }
            return false
        case 3:
            if first == "file_browser_handlers" { return isIndex(1) && key(2) == "default_title" }
            if first == "input_components" { return isIndex(1) && (key(2) == "name" || key(2) == "description") }
            if first == "app" { return key(1) == "launch" && (key(2) == "local_path" || key(2) == "web_url") }
            if first == "commands" { return key(1) != nil && key(2) == "description" }
            if first == "chrome_settings_overrides" {
                if key(1) == "startup_pages" { return isIndex(2) }
                return key(1) == "search_provider" && key(2) != nil && key(2) != "alternate_urls"
            }
            return false
        case 4:
            return first == "chrome_settings_overrides" && key(1) == "search_provider" && key(2) == "alternate_urls" && isIndex(3)
        default:
            return false
        }
    }

    /// `bytes` (valid JSON) with each string value that `change` gives a new text for rewritten
    /// in place; all else is kept byte for byte.
    static func rewritingStrings(_ bytes: [UInt8], _ change: (JSONPath, String) throws -> String?) throws -> [UInt8] {
        var edits: [(range: Range<Int>, text: String)] = []
        for string in try strings(in: bytes) {
            if let text = try change(string.path, string.value), text != string.value {
                edits.append((string.range, JSONText.string(text)))
            }
        }
        var out = bytes
        for edit in edits.reversed() { out.replaceSubrange(edit.range, with: Array(edit.text.utf8)) }
        return out
    }

    /// Every string value of the document (not keys), in document order, with its path and the
    /// bytes of its literal.
    static func strings(in bytes: [UInt8]) throws(JSONInputError) -> [(path: JSONPath, range: Range<Int>, value: String)] {
        var found: [(path: JSONPath, range: Range<Int>, value: String)] = []
        func walk(_ scanner: inout JSONScanner, _ path: JSONPath) throws(JSONInputError) {
            switch scanner.peekKind() {
            case .object:
                try scanner.readObject(at: path) { (inner: inout JSONScanner, key: String) throws(JSONInputError) in
                    try walk(&inner, path.appending(key: key))
                }
            case .array:
                try scanner.readArray(at: path) { (inner: inout JSONScanner, index: Int) throws(JSONInputError) in
                    try walk(&inner, path.appending(index: index))
                }
            case .string:
                let start = scanner.index
                let value = try scanner.readString(at: path)
                found.append((path, start..<scanner.index, value))
            default:
                try scanner.skipValue(at: path)
            }
        }
        var scanner = JSONScanner(bytes)
        try scanner.readDocument { (inner: inout JSONScanner) throws(JSONInputError) in try walk(&inner, .root) }
        return found
    }
}
