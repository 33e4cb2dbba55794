import Foundation
import StrictJSON

extension Localization {
    /// Loads the catalogs `manifest` (the parsed, not yet localized manifest.json) asks for from
    /// `folder/_locales`, by the profile's rules.
    ///
    /// Chrome refuses to load an extension with `_locales` but no `default_locale`, or the other
    /// way round, or a catalog it cannot use (extensions/common/manifest_handlers/
    /// default_locale_handler.cc, message_bundle.cc): each is a ``ManifestError`` here. Safari
    /// loads such an extension with localization off, recording an error for some
    /// (WebKit's WebExtension.cpp `parseManifest`): those are ``warnings``. In both profiles a
    /// messages.json that is not JSON, or an entry without a `message` string, is bad input and a
    /// ``ManifestError`` naming the file (Safari would leave the locale, or the message, empty).
    /// - Throws: ``ManifestError`` naming manifest.json and `default_locale`, or a messages.json
    ///   and the key.
    static func load(folder: URL, manifest: [String: Any], manifestFile: String, profile: Browser.Profile) throws -> Localization {
        let localesFolder = folder.appendingPathComponent("_locales")
        var isDirectory: ObjCBool = false
        let hasLocales = FileManager.default.fileExists(atPath: localesFolder.path, isDirectory: &isDirectory) && isDirectory.boolValue
        let folders = hasLocales ? localeFolders(in: localesFolder) : []
        func catalogFile(_ locale: String) -> URL { localesFolder.appendingPathComponent(locale).appendingPathComponent("messages.json") }
        func fail(_ reason: String) -> ManifestError {
            var error = ManifestError(file: manifestFile, keyPath: "default_locale", reason: reason)
            if let bytes = FileManager.default.contents(atPath: manifestFile).map(Array.init),
               let location = JSONLocator.locate("default_locale", in: bytes) {
                (error.line, error.column) = (location.line, location.column)
            }
            return error
        }

        switch profile {
        case .chromium:
            guard let value = manifest["default_locale"] else {
                if hasLocales {
                    throw fail(chrome("is required when the extension has a _locales folder",
                                      "Localization used, but default_locale wasn't specified in the manifest."))
                }
                return .off(profile)
            }
            guard let defaultLocale = value as? String, isLocaleName(defaultLocale) else {
                throw fail(chrome("must be a locale name such as \"en\" or \"pt_BR\"", "Invalid value for default locale - locale name must be a string."))
            }
            guard hasLocales else {
                throw fail(chrome("names '\(defaultLocale)' but the extension has no _locales folder",
                                  "Default locale was specified, but _locales subtree is missing."))
            }
            // Every locale folder needs its catalog (folders whose names have a dot are skipped,
            // extension_l10n_util.cc ShouldSkipValidation).
            for locale in folders where !locale.contains(".") && !FileManager.default.fileExists(atPath: catalogFile(locale).path) {
                throw ManifestError(file: catalogFile(locale).path, keyPath: "",
                                    reason: chrome("is missing: every folder in _locales needs one", "Messages file is missing for locale. \(catalogFile(locale).path)"))
            }
            guard folders.contains(defaultLocale) else {
                throw fail(chrome("names '\(defaultLocale)' but there is no _locales/\(defaultLocale)/messages.json",
                                  "Default locale is defined but default data couldn't be loaded."))
            }
            let loaded = try catalogs(folders.filter { !$0.contains(".") }, file: catalogFile, profile: profile)
            // extension_l10n_util.cc GetAllFallbackLocales: the UI locale and its parents (unless
            // the UI locale is the default), then the default; folders that are missing are skipped.
            let chain = ((defaultLocale == chromeUILocale ? [] : uiLocales) + [defaultLocale]).filter { loaded[$0] != nil }
            return Localization(profile: profile, defaultLocale: defaultLocale, locale: chain.first,
                                entries: merged(chain.compactMap { loaded[$0] }), warnings: [])

        case .safari:
            // Safari reads `default_locale` only when it is a string.
            guard let defaultLocale = manifest["default_locale"] as? String else { return .off(profile) }
            let loaded = try catalogs(folders, file: catalogFile, profile: profile)
            let off = " (localization is off)"
            guard !languageCode(of: defaultLocale).isEmpty else {
                return .off(profile, warnings: ["default_locale: Empty or invalid `default_locale` manifest entry." + off])
            }
            guard folders.contains(defaultLocale) else {
                return .off(profile, warnings: ["default_locale: Unable to find `default_locale` in “_locales” folder." + off])
            }
            guard let defaultCatalog = loaded[defaultLocale] else {
                return .off(profile, warnings: ["default_locale: there is no _locales/\(defaultLocale)/messages.json" + off])
            }
            let best = safariBestLocale(folders: folders, defaultLocale: defaultLocale)
            let language = languageCode(of: best)
            // WebExtensionLocalization.cpp: the regional catalog, the language-only one, then the
            // default, each only when it is not the default's own.
            var chain: [[String: Entry]] = []
            if best != language, best != defaultLocale, let regional = loaded[best] { chain.append(regional) }
            if !language.isEmpty, language != defaultLocale, let languageOnly = loaded[language] { chain.append(languageOnly) }
            chain.append(defaultCatalog)
            return Localization(profile: profile, defaultLocale: defaultLocale, locale: best, entries: merged(chain), warnings: [])
        }
    }

    /// A reason that adds Chrome's own words: `is required ... (Chrome: "...")`.
    static func chrome(_ reason: String, _ chromeText: String) -> String { "\(reason) (Chrome: \"\(chromeText)\")" }

    /// The folders in `_locales`, sorted (names starting with a dot are no locales).
    static func localeFolders(in folder: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { name in
            var isDirectory: ObjCBool = false
            return !name.hasPrefix(".") && FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }.sorted()
    }

    /// A plausible locale name (`en`, `pt_BR`, `zh-Hant-TW`): a language of letters, then parts
    /// of letters and digits after `_` or `-` (Chromium's l10n_util::IsValidLocaleSyntax, approximately).
    static func isLocaleName(_ text: String) -> Bool {
        let parts = text.split(separator: "_", omittingEmptySubsequences: false).flatMap { $0.split(separator: "-", omittingEmptySubsequences: false) }
        guard let language = parts.first, (2...8).contains(language.count), language.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return parts.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }

    /// Safari's best locale for the `en-US` UI (WebExtension::bestMatchLocale, which asks
    /// Foundation's `NSLocale matchedLanguagesFromAvailableLanguages`, WTF's LanguageCocoa.mm):
    /// the only folder if there is one, else `en_US`, else `en`, else another `en_` folder,
    /// else the default locale.
    static func safariBestLocale(folders: [String], defaultLocale: String) -> String {
        if folders.count == 1 { return folders[0] }
        let language = languageCode(of: Localization.uiLanguage)
        return folders.first { $0 == "en_US" || $0 == "en-US" } ?? folders.first { $0 == language }
            ?? folders.first { languageCode(of: $0) == language } ?? defaultLocale
    }

    /// The catalogs of `locales` that have a messages.json, each checked.
    static func catalogs(_ locales: [String], file: (String) -> URL, profile: Browser.Profile) throws -> [String: [String: Entry]] {
        var catalogs: [String: [String: Entry]] = [:]
        for locale in locales { catalogs[locale] = try catalog(at: file(locale), profile: profile) }
        return catalogs
    }

    /// Catalogs merged in fallback order: the first that has a name wins.
    static func merged(_ catalogs: [[String: Entry]]) -> [String: Entry] {
        var entries: [String: Entry] = [:]
        for catalog in catalogs { entries.merge(catalog) { old, _ in old } }
        return entries
    }
}
