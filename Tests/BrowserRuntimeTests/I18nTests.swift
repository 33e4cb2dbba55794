import BrowserRuntime
import Foundation
import TestSupport
import Testing
import WebRuntime

/// `i18n` and localization (issue 23): `_locales` catalogs and `default_locale` as each browser
/// loads them, `i18n.getMessage` with each browser's placeholder rules, `__MSG_name__` in the
/// manifest and in the extension's CSS, and the manifest errors Chrome refuses to load.
@Suite struct I18nTests {
    static let sampleFolder = Support.fixtures.appendingPathComponent("extensions/i18n-sample")

    func sample(_ profile: Browser.Profile) throws -> (Browser, ExtensionHost) {
        try Support.browser(with: try ExtensionBundle(folder: Self.sampleFolder, profile: profile), pages: [:], permission: .always, profile: profile)
    }

    /// A scratch extension folder with `files` (path -> text).
    func scratch(_ files: [String: String]) throws -> URL {
        let folder = Support.scratchRoot.appendingPathComponent("i18n-\(UUID().uuidString)")
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return folder
    }

    static func manifest(_ extra: String = "", name: String = "Plain") -> String {
        #"{"manifest_version": 3, "name": "\#(name)", "version": "1", "background": {"service_worker": "w.js"}\#(extra)}"#
    }

    // MARK: - The manifest

    @Test(arguments: Browser.Profile.allCases)
    func theManifestIsLocalizedBeforeAnythingReadsIt(_ profile: Browser.Profile) throws {
        let (browser, host) = try sample(profile)
        #expect(host.bundle.manifest.name == "I18n Sample")
        #expect(host.bundle.manifest.description == "Exercises i18n.getMessage, __MSG_ in the manifest and in CSS.")
        #expect(host.bundle.manifest.action?.defaultTitle == "Greet everyone")
        #expect(browser.trace.dump().contains("install I18n Sample 1.0 as \(host.id)"))
        let worker = try #require(host.backgroundWorld)
        let manifest = try Support.eval(worker, """
            const m = chrome.runtime.getManifest();
            [m.name, m.short_name, m.action.default_title, m.author, String(m.current_locale)].join('|')
            """) as? String
        // Safari localizes every string of the manifest; Chrome only the fields it lists (not
        // `author`) and says which locale it used.
        #expect(manifest == (profile == .safari ? "I18n Sample|I18n|Greet everyone|ADV tests|undefined" : "I18n Sample|I18n|Greet everyone|__MSG_author__|en_US"))
        #expect(Support.backgroundLogs(browser) == ["en-US: Hello, Ada! You have 3 new messages."])
    }

    // MARK: - getMessage

    /// What each browser answers: expression -> (Safari, Chrome).
    static let answers: [(String, String, String)] = [
        ("getMessage('greeting', ['messages', 'Ada', '3'])", "Hello, Ada! You have 3 new messages.", "Hello, Ada! You have 3 new messages."),
        ("getMessage('GreeTing', ['messages', 'Ada', '3'])", "Hello, Ada! You have 3 new messages.", "Hello, Ada! You have 3 new messages."),
        ("getMessage('extName')", "I18n Sample", "I18n Sample"),
        ("getMessage('positions', ['a', 'b'])", "a and b but not  or ", "a and b but not  or "),
        ("getMessage('positions', 'x')", "x and  but not  or ", "x and  but not  or "),
        ("getMessage('positions', 42)", " and  but not  or ", " and  but not  or "),
        ("getMessage('dollars')", "Price: $5, or $$ in all", "Price: $5, or $$$ in all"),
        ("getMessage('loose')", "cost $x and $", "cost  and "),
        ("String(getMessage('nine', ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']))", "", "undefined"),
        ("getMessage('nine', ['1', '2', '3', '4', '5', '6', '7', '8', '9'])", "1,2,3,4,5,6,7,8,9", "1,2,3,4,5,6,7,8,9"),
        ("getMessage('nine', [1, 'b', null, 'd', Symbol('s'), { toString() { return 'o'; } }])", "b,d,,,,,,,", "1,b,null,d,o,,,,"),
        ("getMessage('markup', '<i>', { escapeLt: true })", "<b><i></b>", "&lt;b><i>&lt;/b>"),
        ("getMessage('no_such_message')", "", ""),
        ("getMessage('onlyGerman')", "", ""),
        ("getMessage('__MSG_extName__')", "I18n Sample", ""),
        ("getMessage('@@extension_id') === chrome.runtime.id", "true", "true"),
        ("getMessage('@@ui_locale')", "en", "en_US"),
        ("['@@bidi_dir', '@@bidi_reversed_dir', '@@bidi_start_edge', '@@bidi_end_edge'].map((n) => getMessage(n)).join()", "ltr,rtl,left,right", "ltr,rtl,left,right"),
        ("typeof getMessage('extName')", "string", "string"),
        ("getUILanguage()", "en-US", "en-US"),
        ("typeof chrome.i18n.detectLanguage", "undefined", "function"),
    ]

    @Test(arguments: Browser.Profile.allCases)
    func getMessageAnswersAtOnceByEachBrowsersRules(_ profile: Browser.Profile) throws {
        let (browser, host) = try sample(profile)
        defer { withExtendedLifetime(browser) {} }
        let worker = try #require(host.backgroundWorld)
        for (expression, safari, chrome) in Self.answers {
            let answer = try Support.eval(worker, "(() => { const { getMessage, getUILanguage } = chrome.i18n; return String(\(expression)); })()") as? String
            #expect(answer == (profile == .safari ? safari : chrome), "\(expression)")
        }
    }

    @Test func chromesDetectLanguageIsRefusedClearly() throws {
        let (browser, host) = try sample(.chromium)
        let worker = try #require(host.backgroundWorld)
        let answer = try Support.await(browser, worker, "try { await chrome.i18n.detectLanguage('Bonjour tout le monde'); return 'answered'; } catch (e) { return e.message; }") as? String
        #expect(answer == "i18n.detectLanguage is not available in this runtime: it has no language detection model.")
    }

    @Test(arguments: Browser.Profile.allCases)
    func getAcceptLanguagesAnswersLikeAnyCall(_ profile: Browser.Profile) throws {
        let (browser, host) = try sample(profile)
        let worker = try #require(host.backgroundWorld)
        let answer = try Support.await(browser, worker, """
            const promised = await chrome.i18n.getAcceptLanguages();
            const called = await new Promise((resolve) => chrome.i18n.getAcceptLanguages(resolve));
            return JSON.stringify([promised, called]);
            """) as? String
        #expect(answer == #"[["en-US","en"],["en-US","en"]]"#)
        #expect(browser.trace.dump(channels: [.api]).contains(#"i18n.getAcceptLanguages -> ["en-US","en"]"#))
    }

    @Test func badArgumentsThrowInSafarisWords() throws {
        let (browser, host) = try sample(.safari)
        defer { withExtendedLifetime(browser) {} }
        let worker = try #require(host.backgroundWorld)
        let thrown = try Support.eval(worker, """
            [() => chrome.i18n.getMessage(), () => chrome.i18n.getMessage(123), () => chrome.i18n.getMessage(null), () => chrome.i18n.getMessage('')]
              .map((f) => { try { f(); return 'no throw'; } catch (e) { return e.constructor.name + ': ' + e.message; } }).join('|')
            """) as? String
        #expect(thrown == [
            "Error: Invalid call to i18n.getMessage(). A required argument is missing.",
            "Error: Invalid call to i18n.getMessage(). The 'name' value is invalid, because a string is expected.",
            "Error: Invalid call to i18n.getMessage(). The 'name' value is invalid, because a string is expected.",
            "Error: Invalid call to i18n.getMessage(). The 'name' value is invalid, because it cannot be empty.",
        ].joined(separator: "|"))
        #expect(try Support.eval(worker, "chrome.i18n.getUILanguage('ignored')") as? String == "en-US")
    }

    @Test func badArgumentsThrowInChromesWords() throws {
        let (browser, host) = try sample(.chromium)
        defer { withExtendedLifetime(browser) {} }
        let worker = try #require(host.backgroundWorld)
        let thrown = try Support.eval(worker, """
            [() => chrome.i18n.getMessage(), () => chrome.i18n.getMessage(123), () => chrome.i18n.getMessage('x', [], 5),
             () => chrome.i18n.getMessage('x', [], { escapeLt: 'yes' }), () => chrome.i18n.getMessage('x', [], { other: 1 }),
             () => chrome.i18n.getUILanguage(1)]
              .map((f) => { try { f(); return 'no throw'; } catch (e) { return e.constructor.name + ': ' + e.message; } }).join('|')
            """) as? String
        let signature = "TypeError: Error in invocation of i18n.getMessage(string messageName, optional any substitutions, optional object options): "
        #expect(thrown == [
            signature + "No matching signature.",
            signature + "No matching signature.",
            signature + "No matching signature.",
            signature + "Error at parameter 'options': Error at property 'escapeLt': Invalid type: expected boolean, found string.",
            signature + "Error at parameter 'options': Unexpected property: 'other'.",
            "TypeError: Error in invocation of i18n.getUILanguage(): No matching signature.",
        ].joined(separator: "|"))
        // An empty name is no error in Chrome: no message has it.
        #expect(try Support.eval(worker, "chrome.i18n.getMessage('', null, null)") as? String == "")
    }

    // MARK: - Content scripts and CSS

    @Test(arguments: Browser.Profile.allCases)
    func contentScriptsGetMessagesAndLocalizedStylesheets(_ profile: Browser.Profile) throws {
        let (browser, host) = try sample(profile)
        let tab = try browser.openTab(url: "https://news.example/")
        try browser.loop.runUntilIdle()
        let page = try #require(tab.page)
        let content = try page.contentWorld(for: host.id)
        #expect(try Support.eval(content, "[chrome.i18n.getMessage('badge'), chrome.i18n.getMessage('@@extension_id') === chrome.runtime.id, chrome.i18n.getUILanguage()].join()") as? String
            == "new,true,en-US")
        #expect(try Support.eval(page.pageWorld, "document.querySelector('.i18n-sample-badge').textContent") as? String == "new")
        let css = try host.bundle.styleSheet("content.css")
        #expect(css.contains(#"url("safari-web-extension://\#(host.id)/badge.svg")"#) && css.contains(#"content: "new";"#) && !css.contains("__MSG_"))
        let image = try Support.eval(page.pageWorld, "getComputedStyle(document.querySelector('.i18n-sample-badge')).backgroundImage") as? String
        #expect(image?.contains(host.id) == true, "\(image ?? "nil")")
    }

    @Test(arguments: Browser.Profile.allCases)
    func anExtensionPagesStylesheetIsLocalized(_ profile: Browser.Profile) throws {
        let (browser, host) = try sample(profile)
        let tab = try browser.openTab(url: "https://news.example/")
        let popup = try browser.openPopup(host, in: tab)
        try browser.loop.runUntilIdle()
        let image = try Support.eval(popup.pageWorld, "getComputedStyle(document.body).backgroundImage") as? String
        #expect(image?.contains("rtl.svg") == true, "\(image ?? "nil")")
        #expect(try Support.eval(popup.pageWorld, "document.querySelector('h1').textContent") as? String == "I18n Sample")
    }

    @Test func chromeStopsReplacingCSSAtTheFirstUnknownNameWhereSafariEmptiesIt() throws {
        let folder = try scratch([
            "manifest.json": Self.manifest(#", "default_locale": "en""#),
            "w.js": "",
            "_locales/en/messages.json": #"{"a": {"message": "A"}}"#,
            "s.css": "x{content:'__MSG_a__'} y{content:'__MSG_nope__'} z{content:'__MSG_A__'}",
        ])
        #expect(try ExtensionBundle(folder: folder, profile: .safari).styleSheet("s.css") == "x{content:'A'} y{content:''} z{content:'A'}")
        #expect(try ExtensionBundle(folder: folder, profile: .chromium).styleSheet("s.css") == "x{content:'A'} y{content:'__MSG_nope__'} z{content:'__MSG_A__'}")
    }

    // MARK: - Locales

    @Test(arguments: Browser.Profile.allCases)
    func messagesFallBackFromEnUSToEnToTheDefault(_ profile: Browser.Profile) throws {
        let folder = try scratch([
            "manifest.json": Self.manifest(#", "default_locale": "de""#),
            "w.js": "",
            "_locales/de/messages.json": #"{"a": {"message": "de a"}, "b": {"message": "de b"}, "c": {"message": "de c"}}"#,
            "_locales/en/messages.json": #"{"a": {"message": "en a"}, "b": {"message": "en b"}}"#,
            "_locales/en_US/messages.json": #"{"a": {"message": "en_US a"}}"#,
            "_locales/fr/messages.json": #"{"a": {"message": "fr a"}, "c": {"message": "fr c"}}"#,
        ])
        let bundle = try ExtensionBundle(folder: folder, profile: profile)
        #expect(["a", "b", "c", "@@ui_locale"].map { bundle.localization.message($0, substitutions: [], extensionID: bundle.id) }
            == ["en_US a", "en b", "de c", "en_US"])
        #expect(bundle.localization.locale == "en_US")
    }

    @Test func safariWithoutADefaultLocaleHasOnlyTheExtensionID() throws {
        let folder = try scratch([
            "manifest.json": Self.manifest(#", "description": "__MSG_description__""#),
            "w.js": "",
            "_locales/en/messages.json": #"{"description": {"message": "Described"}}"#,
        ])
        let bundle = try ExtensionBundle(folder: folder, profile: .safari)
        #expect(!bundle.localization.isActive)
        #expect(bundle.manifest.description == "")
        #expect(["description", "@@extension_id", "@@ui_locale", "@@bidi_dir"].map { bundle.localization.message($0, substitutions: [], extensionID: bundle.id) }
            == ["", bundle.id, "", ""])
    }

    @Test func safariLoadsWhatChromeRefusesWithLocalizationOffAndSaysSo() throws {
        let folder = try scratch([
            "manifest.json": Self.manifest(#", "default_locale": "en""#),
            "w.js": "",
            "_locales/fr/messages.json": #"{"hello": {"message": "Bonjour"}}"#,
        ])
        let browser = try Browser()
        let host = try browser.install(try ExtensionBundle(folder: folder))
        #expect(!host.bundle.localization.isActive)
        #expect(browser.trace.events.map(\.text).contains("warning: Plain: default_locale: Unable to find `default_locale` in “_locales” folder. (localization is off)"))
        #expect(throws: ManifestError.self) { try ExtensionBundle(folder: folder, profile: .chromium) }
    }

    @Test func chromeCatalogsKeepTheirOwnRulesWhereSafariIsLenient() throws {
        let folder = try scratch([
            "manifest.json": Self.manifest(#", "default_locale": "en""#),
            "w.js": "",
            "_locales/en/messages.json": #"{"hi": {"message": "Hi $who$!"}, "@@ui_locale": {"message": "mine"}, "two words": {"message": "x"}}"#,
        ])
        let safari = try ExtensionBundle(folder: folder, profile: .safari)
        #expect(safari.localization.message("hi", substitutions: [], extensionID: safari.id) == "Hi !")
        #expect(safari.localization.message("@@ui_locale", substitutions: [], extensionID: safari.id) == "en")
        #expect(safari.localization.message("two words", substitutions: [], extensionID: safari.id) == "x")
    }

    // MARK: - Manifest errors

    /// Bad `_locales` input: files (beyond manifest.json's `w.js`), the profiles that refuse it,
    /// the file and key path named, and a part of the reason.
    static let badLocales: [(files: [String: String], profiles: [Browser.Profile], file: String, keyPath: String, reason: String)] = [
        (["manifest.json": manifest(), "_locales/en/messages.json": "{}"], [.chromium], "manifest.json", "default_locale",
         "Localization used, but default_locale wasn't specified in the manifest."),
        (["manifest.json": manifest(#", "default_locale": "en""#)], [.chromium], "manifest.json", "default_locale",
         "Default locale was specified, but _locales subtree is missing."),
        (["manifest.json": manifest(#", "default_locale": 5"#), "_locales/en/messages.json": "{}"], [.chromium], "manifest.json", "default_locale",
         "Invalid value for default locale - locale name must be a string."),
        (["manifest.json": manifest(#", "default_locale": "en""#), "_locales/fr/messages.json": "{}"], [.chromium], "manifest.json", "default_locale",
         "Default locale is defined but default data couldn't be loaded."),
        (["manifest.json": manifest(#", "default_locale": "en""#), "_locales/en/messages.json": "{}", "_locales/fr/readme.txt": ""], [.chromium],
         "_locales/fr/messages.json", "", "Messages file is missing for locale."),
        (["manifest.json": manifest(#", "default_locale": "en""#), "_locales/en/messages.json": #"{"a": {"message": "x"},}"#], [.safari, .chromium],
         "_locales/en/messages.json", "", "not valid JSON"),
        (["manifest.json": manifest(#", "default_locale": "en""#), "_locales/en/messages.json": #"{"a": {"message": "x"}}"#, "_locales/de/messages.json": "[1]"],
         [.safari, .chromium], "_locales/de/messages.json", "", "the top level must be an object of messages"),
        (["manifest.json": manifest(#", "default_locale": "en""#), "_locales/en/messages.json": #"{"greeting": {"description": "no message"}}"#],
         [.safari, .chromium], "_locales/en/messages.json", "greeting.message", #"There is no "message" element for key greeting."#),
        (["manifest.json": manifest(#", "default_locale": "en""#), "_locales/en/messages.json": #"{"greeting": "Hello"}"#],
         [.safari, .chromium], "_locales/en/messages.json", "greeting", "Not a valid tree for key greeting."),
        (["manifest.json": manifest(#", "default_locale": "en""#), "_locales/en/messages.json": #"{"hi": {"message": "Hi $who$!"}}"#],
         [.chromium], "_locales/en/messages.json", "hi.message", "Variable $who$ used but not defined."),
        // message_bundle.cc reads `$1$` as a named placeholder "1": Chrome refuses "$1$2".
        (["manifest.json": manifest(#", "default_locale": "en""#), "_locales/en/messages.json": #"{"both": {"message": "$1$2"}}"#],
         [.chromium], "_locales/en/messages.json", "both.message", "Variable $1$ used but not defined."),
        (["manifest.json": manifest(#", "default_locale": "en""#), "_locales/en/messages.json": #"{"two words": {"message": "x"}}"#],
         [.chromium], "_locales/en/messages.json", #"["two words"]"#, #"Name of a key "two words" is invalid."#),
        (["manifest.json": manifest(#", "default_locale": "en""#), "_locales/en/messages.json": #"{"@@UI_locale": {"message": "x"}}"#],
         [.chromium], "_locales/en/messages.json", #"["@@UI_locale"]"#, "Reserved key @@ui_locale found in message catalog."),
        (["manifest.json": manifest(#", "default_locale": "en""#, name: "Name __MSG_missing__"), "_locales/en/messages.json": "{}"],
         [.chromium], "manifest.json", "name", "Variable __MSG_missing__ used but not defined."),
        (["manifest.json": manifest(#", "default_locale": "en""#, name: "x __MSG_@@extension_id__"), "_locales/en/messages.json": "{}"],
         [.chromium], "manifest.json", "name", "Variable __MSG_@@extension_id__ used but not defined."),
    ]

    @Test(arguments: 0..<badLocales.count)
    func badLocalesAreManifestErrorsNamingTheFileAndKey(_ index: Int) throws {
        let case_ = Self.badLocales[index]
        var files = case_.files
        files["w.js"] = ""
        let folder = try scratch(files)
        for profile in Browser.Profile.allCases {
            do {
                let bundle = try ExtensionBundle(folder: folder, profile: profile)
                #expect(!case_.profiles.contains(profile), "\(profile) loaded case \(index) (\(bundle.manifest.name))")
            } catch let error as ManifestError {
                #expect(case_.profiles.contains(profile), "\(profile) refused case \(index): \(error)")
                #expect(error.file == folder.appendingPathComponent(case_.file).path, "\(error)")
                #expect(error.keyPath == case_.keyPath, "\(error)")
                #expect(error.reason.contains(case_.reason), "\(error)")
                // A key or a JSON error is named by line and column; a missing key or file cannot be.
                let missing = case_.reason.contains("Messages file is missing")
                #expect((error.line != nil) == !missing, "\(error)")
            }
        }
    }

    @Test func safariEmptiesAManifestNameNoCatalogDefines() throws {
        // Safari replaces an unknown __MSG_ by "", and in the manifest has no @@extension_id yet
        // (WebExtension-level localization has no unique identifier).
        let folder = try scratch([
            "manifest.json": Self.manifest(#", "default_locale": "en", "description": "[__MSG_@@extension_id__][__MSG_nope__][__MSG_@@ui_locale__]""#),
            "w.js": "", "_locales/en/messages.json": "{}",
        ])
        #expect(try ExtensionBundle(folder: folder, profile: .safari).manifest.description == "[][][en]")
        #expect(throws: ManifestError.self) { try ExtensionBundle(folder: folder, profile: .chromium) }
    }

    @Test func installingInChromeLoadsABundleByChromesRules() throws {
        let folder = try scratch(["manifest.json": Self.manifest(), "w.js": "", "_locales/en/messages.json": "{}"])
        let bundle = try ExtensionBundle(folder: folder)
        var options = Browser.Options()
        options.profile = .chromium
        let browser = try Browser(options: options)
        #expect(throws: ManifestError.self) { try browser.install(bundle) }
    }
}
