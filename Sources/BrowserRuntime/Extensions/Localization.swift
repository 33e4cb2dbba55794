import Foundation

/// An extension's `_locales/<locale>/messages.json` catalogs as one browser resolves them: the
/// locale chosen for the browser's fixed UI language, the messages of its fallback chain, and
/// the predefined `@@` messages. `i18n.getMessage`, `__MSG_name__` in the manifest and in the
/// extension's CSS all read it.
///
/// The UI language is fixed at `en-US` so that traces are the same on every machine: both
/// browsers then look in `en_US`, then `en`, then `default_locale`.
public struct Localization: Sendable {
    /// One catalog entry, its name lowercased (both browsers look names up case-insensitively).
    struct Entry: Sendable {
        /// The `message` text. Chrome's has its named placeholders replaced already (it does
        /// that when it loads the catalog); Safari's has them still.
        var message: String
        /// Named placeholders by lowercased name -> `content` (Safari; empty for Chrome).
        var placeholders: [String: String]
    }

    /// What `i18n.getUILanguage()` answers in both profiles.
    public static let uiLanguage = "en-US"
    /// What `i18n.getAcceptLanguages()` answers: the UI language, then its bare language (Safari
    /// lists each preferred language followed by its language code, WebKit's
    /// WebExtensionAPILocalizationCocoa.mm; Chrome's default accept-languages for en-US).
    public static let acceptLanguages = ["en-US", "en"]
    /// The locale folders tried for the UI language, best first.
    static let uiLocales = ["en_US", "en"]
    /// The UI locale as Chrome writes it in `@@ui_locale` and the manifest's `current_locale`
    /// (l10n_util::NormalizeLocale of the process locale).
    static let chromeUILocale = "en_US"

    /// Whose rules apply.
    let profile: Browser.Profile
    /// The manifest's `default_locale` when localization is on; nil when it is off.
    public let defaultLocale: String?
    /// The locale the extension is shown in: Safari's best-matching folder (its `@@ui_locale`),
    /// or the first folder of Chrome's fallback chain that exists; nil when localization is off.
    public let locale: String?
    /// Messages by lowercased name; the first catalog of the fallback chain that has a name wins.
    let entries: [String: Entry]
    /// Problems a browser records but loads the extension anyway (Safari), said once in the
    /// install trace: `default_locale: Unable to find ...`.
    public let warnings: [String]

    /// No localization: no `default_locale` (or one a browser does not use).
    static func off(_ profile: Browser.Profile, warnings: [String] = []) -> Localization {
        Localization(profile: profile, defaultLocale: nil, locale: nil, entries: [:], warnings: warnings)
    }

    /// True when the extension is localized (a `default_locale` the browser uses).
    public var isActive: Bool { defaultLocale != nil }

    // MARK: - Predefined messages

    /// Where a message is resolved: the manifest (as the browser parses it, before any context
    /// exists) or a context of the extension whose id is given (getMessage, CSS).
    enum Use {
        case manifest
        case context(extensionID: String)
    }

    /// The `@@` messages (WebKit's WebExtensionLocalization.cpp `predefinedMessages`; Chromium's
    /// message_bundle.cc `AppendReservedMessagesForLocale` and l10n_file_util.cc).
    ///
    /// Safari derives `@@ui_locale` and the `@@bidi_*` values from the chosen locale folder and
    /// has none of them without localization; Chrome from its UI locale, only for a localized
    /// extension. `@@extension_id` exists in every context of both; in the manifest Safari has
    /// no id yet (its WebExtension-level localization has no unique identifier, so the name
    /// resolves to "") and Chrome's manifest dictionary has no `@@extension_id` at all.
    func predefined(_ use: Use) -> [String: String] {
        var messages: [String: String] = [:]
        switch profile {
        case .safari:
            if case let .context(id) = use { messages["@@extension_id"] = id }
            if let locale {
                messages["@@ui_locale"] = locale
                messages.merge(Self.bidi(rightToLeft: Self.isRightToLeft(locale))) { old, _ in old }
            }
        case .chromium:
            if case let .context(id) = use { messages["@@extension_id"] = id }
            if isActive {
                messages["@@ui_locale"] = Self.chromeUILocale
                messages.merge(Self.bidi(rightToLeft: Self.isRightToLeft(Self.chromeUILocale))) { old, _ in old }
            }
        }
        return messages
    }

    static func bidi(rightToLeft: Bool) -> [String: String] {
        ["@@bidi_dir": rightToLeft ? "rtl" : "ltr", "@@bidi_reversed_dir": rightToLeft ? "ltr" : "rtl",
         "@@bidi_start_edge": rightToLeft ? "right" : "left", "@@bidi_end_edge": rightToLeft ? "left" : "right"]
    }

    /// Languages written right to left (the default writing direction ICU and Foundation give
    /// their locales): Arabic, Dhivehi, Persian, Hebrew (and its old code iw), Kashmiri,
    /// Kurdish (Sorani), Pashto, Sindhi, Uyghur, Urdu, Yiddish.
    static let rightToLeftLanguages: Set<String> = ["ar", "ckb", "dv", "fa", "he", "iw", "ks", "ps", "sd", "ug", "ur", "yi"]

    static func isRightToLeft(_ locale: String) -> Bool {
        rightToLeftLanguages.contains(languageCode(of: locale).lowercased())
    }

    /// The language part of `en_US` or `en-US`.
    static func languageCode(of locale: String) -> String {
        String(locale.prefix { $0 != "_" && $0 != "-" })
    }

    // MARK: - Lookup

    /// `i18n.getMessage(name, substitutions)` as the profile's browser answers it: "" for a
    /// name it does not know, nil (JavaScript's undefined) where Chrome gives that.
    /// - Parameters:
    ///   - substitutions: already converted to strings as the browser's bindings convert them.
    ///   - escapeLessThan: Chrome's `options.escapeLt`.
    public func message(_ name: String, substitutions: [String], escapeLessThan: Bool = false, extensionID: String) -> String? {
        switch profile {
        case .safari:
            return safariMessage(name, substitutions: substitutions, use: .context(extensionID: extensionID))
        case .chromium:
            // i18n_hooks_delegate.cc: more than nine substitutions answer undefined, whatever the name.
            if substitutions.count > 9 { return nil }
            guard var text = chromeDictionary(.context(extensionID: extensionID))[name.lowercased()] else { return "" }
            if escapeLessThan { text = text.replacingOccurrences(of: "<", with: "&lt;") }
            return Self.chromePositional(text, substitutions)
        }
    }

    /// Safari's `localizedStringForKey` (WebKit's WebExtensionLocalization.cpp): predefined
    /// messages first, then the catalogs; named, then positional placeholders, then `$$` -> `$`.
    func safariMessage(_ name: String, substitutions: [String], use: Use) -> String {
        if substitutions.count > 9 { return "" }
        var key = name
        // A name written as `__MSG_x__` is looked up as `x`.
        if key.contains("__MSG_"), key.count >= 8 { key = String(key.dropFirst(6).dropLast(2)) }
        key = key.lowercased()
        let text: String
        let placeholders: [String: String]
        if let value = predefined(use)[key] {
            (text, placeholders) = (value, [:])
        } else if let entry = entries[key] {
            (text, placeholders) = (entry.message, entry.placeholders)
        } else {
            return ""
        }
        if text.isEmpty { return "" }
        let named = Self.safariNamed(text, placeholders)
        let positional = Self.safariPositional(named, substitutions)
        return positional.replacingOccurrences(of: "$$", with: "$")
    }

    /// Chrome's substitution map: `@@extension_id` in a context, then the catalogs' messages
    /// and the reserved messages of a localized extension (l10n_file_util.cc inserts the id first,
    /// so a catalog cannot replace it).
    func chromeDictionary(_ use: Use) -> [String: String] {
        var dictionary = predefined(use)
        for (name, entry) in entries where dictionary[name] == nil { dictionary[name] = entry.message }
        return dictionary
    }

    // MARK: - Stylesheets

    /// An extension stylesheet with its `__MSG_name__` references replaced, as both browsers
    /// serve the CSS an extension injects or its pages load (WebKit's test `CSSLocalization`;
    /// Chromium's extension_user_script_loader.cc and extension_localization_throttle.cc):
    /// Safari replaces every reference (an unknown name by ""), Chrome replaces them in order and
    /// stops at the first name it does not know, leaving the rest as written.
    public func localizeStyleSheet(_ css: String, extensionID: String) -> String {
        guard css.contains("__MSG_") else { return css }
        switch profile {
        case .safari:
            return safariLocalize(css, use: .context(extensionID: extensionID))
        case .chromium:
            let dictionary = chromeDictionary(.context(extensionID: extensionID))
            return Self.chromeReplaceVariables(css, begin: "__MSG_", end: "__") { dictionary[$0.lowercased()] }.text
        }
    }
}
