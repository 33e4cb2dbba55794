import Foundation
import WebRuntime

/// An unpacked Web Extension folder with its validated manifest.
public struct ExtensionBundle: Sendable {
    /// The extension's folder.
    public let folder: URL
    /// The validated manifest.
    public private(set) var manifest: Manifest
    /// The extension's id, as `runtime.id` reports it and used in its URLs.
    public private(set) var id: String
    /// The scheme and separator of its URLs: `safari-web-extension://`, or `chrome-extension://`
    /// once installed in the chromium profile (``chromiumIdentity()``).
    public private(set) var urlScheme = ExtensionBundle.scheme
    /// The browser whose rules loaded it: they differ in how `_locales` and `__MSG_` are read.
    public let profile: Browser.Profile
    /// Its `_locales` catalogs as that browser resolves them.
    public let localization: Localization
    /// manifest.json as the extension's scripts see it (`runtime.getManifest()`): localized.
    let manifestText: String
    /// The id given when it was loaded (nil: derived from the name).
    private let givenID: String?
    /// API permissions withheld (``withholding(_:)``), kept when it is loaded again.
    private var withheld: Set<String> = []

    /// Loads and validates `folder/manifest.json` and its `_locales` catalogs, localizing the
    /// manifest as `profile`'s browser does.
    /// - Parameter id: the extension id (Safari uses a per-profile UUID); by default derived from
    ///   the (localized) manifest name so traces are stable.
    /// - Throws: ``ManifestError`` naming the file (manifest.json or a messages.json) and key path.
    public init(folder: URL, id: String? = nil, profile: Browser.Profile = .safari) throws {
        let file = folder.appendingPathComponent("manifest.json")
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw ManifestError(file: file.path, keyPath: "", reason: "cannot read the manifest (is '\(folder.path)' an extension folder?)")
        }
        self.folder = folder
        self.profile = profile
        let parsed = try Manifest.parse(data, file: file.path, fileExists: { path in
            FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path)
        }, localize: { top in
            try Localization.load(folder: folder, manifest: top, manifestFile: file.path, profile: profile)
        })
        manifest = parsed.manifest
        localization = parsed.localization ?? .off(profile)
        manifestText = localization.manifestForScripts(String(decoding: parsed.text, as: UTF8.self))
        givenID = id
        self.id = id ?? Self.stableID(for: manifest.name)
    }

    /// The same extension as `profile`'s browser loads it (itself when it already is), with the
    /// same withheld permissions.
    /// - Throws: ``ManifestError`` for what that browser refuses (Chrome's `_locales` rules).
    public func loaded(for profile: Browser.Profile) throws -> ExtensionBundle {
        guard profile != self.profile else { return self }
        return try ExtensionBundle(folder: folder, id: givenID, profile: profile).withholding(withheld)
    }

    /// Reads and validates every static ruleset the manifest names, as installing would: a
    /// scenario checks this before anything runs, so a bad rule is bad input, not a failed step.
    /// - Throws: ``ManifestError`` naming the rule file and the position of the first bad rule.
    package func validateRulesets() throws {
        _ = try DNRState(bundle: self)
    }

    /// The same extension without some API permissions, as when a browser withholds them.
    public func withholding(_ permissions: Set<String>) -> ExtensionBundle {
        var copy = self
        copy.manifest.permissions.subtract(permissions)
        copy.withheld.formUnion(permissions)
        return copy
    }

    /// Files already read. Like Safari, which reads an installed extension's resources from its
    /// bundle, a loaded extension does not see later edits to its folder; content scripts are
    /// read once, not again on every navigation.
    private let texts = LockedCache<String>()

    /// The text of a file inside the extension.
    /// - Throws: ``ManifestError`` when it cannot be read.
    public func text(_ path: String) throws -> String {
        if let text = texts[path] { return text }
        let url = folder.appendingPathComponent(path)
        guard let data = FileManager.default.contents(atPath: url.path), let text = String(data: data, encoding: .utf8) else {
            throw ManifestError(file: url.path, keyPath: "", reason: "cannot read '\(path)' as UTF-8 text")
        }
        texts[path] = text
        return text
    }

    /// A stylesheet of the extension as the browser serves it to pages: its `__MSG_name__`
    /// references replaced (``Localization/localizeStyleSheet(_:extensionID:)``).
    /// - Throws: ``ManifestError`` when it cannot be read.
    public func styleSheet(_ path: String) throws -> String {
        localization.localizeStyleSheet(try text(path), extensionID: id)
    }

    /// The scheme and separator of Safari's extension URLs.
    public static let scheme = "safari-web-extension://"
    /// Chrome's.
    public static let chromiumScheme = "chrome-extension://"

    /// The length of the scheme `url` starts with when it is an extension URL (either browser's).
    public static func schemeLength(of url: String) -> Int? {
        if url.hasPrefix(scheme) { return scheme.count }
        if url.hasPrefix(chromiumScheme) { return chromiumScheme.count }
        return nil
    }

    /// `safari-web-extension://<id>/<path>` (or `chrome-extension://`), what `runtime.getURL` returns.
    public func url(_ path: String) -> String {
        urlScheme + "\(id)/" + (path.hasPrefix("/") ? String(path.dropFirst()) : path)
    }

    /// The same extension as Chrome names it: `chrome-extension://` URLs and, unless an id was
    /// given, Chrome's id shape, 32 letters from a to p (Chrome maps each hex digit of a hash of
    /// the extension's key or path onto a–p; here the hash is of the manifest name, so ids stay
    /// stable across machines).
    public func chromiumIdentity(keepingID: Bool = false) -> ExtensionBundle {
        var copy = self
        copy.urlScheme = Self.chromiumScheme
        if !keepingID { copy.id = Self.chromiumID(for: manifest.name) }
        return copy
    }

    static func chromiumID(for name: String) -> String {
        let letters = Array("abcdefghijklmnop")
        return String(stableID(for: name).filter(\.isHexDigit).map { letters[Int(String($0), radix: 16)!] })
    }

    /// A UUID-shaped id derived from the name (FNV-1a), uppercase like Safari's.
    static func stableID(for name: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var words: [UInt64] = []
        for round in 0..<2 {
            for byte in "\(round):\(name)".utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            words.append(hash)
        }
        let hex = words.map { String($0, radix: 16, uppercase: true) }.map { String(repeating: "0", count: 16 - $0.count) + $0 }.joined()
        let chars = Array(hex)
        return "\(String(chars[0..<8]))-\(String(chars[8..<12]))-\(String(chars[12..<16]))-\(String(chars[16..<20]))-\(String(chars[20..<32]))"
    }
}
