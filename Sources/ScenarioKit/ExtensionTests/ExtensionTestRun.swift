import BrowserRuntime
import Foundation
import WebRuntime

/// Runs an extension's own tests (written with `browser.test`, or `chrome.test` in the chromium
/// profile) on the virtual clock, as
/// `adv-harness test` does: the extension installed with the permissions it asks for, the
/// given pages opened in tabs, until every context that used `browser.test` has said
/// notifyPass or notifyFail, or the budget of virtual time is spent.
public enum ExtensionTestRun {
    public struct Options: Sendable {
        public var profile: Browser.Profile = .safari
        /// Pages to open, in order: URL and the file that answers it.
        public var pages: [(url: String, file: URL)] = []
        /// Hosts the extension may run on; empty: every host (the permissions it asks for, granted).
        public var grants: [String] = []
        /// API permissions to withhold from the manifest's.
        public var withheld: Set<String> = []
        /// Virtual time the tests may take.
        public var budget: VirtualTime = .seconds(30)
        /// What `chrome.test.getConfig()` gives (a JSON object).
        public var config = "{}"
        public init() {}
    }

    public struct Result: Sendable {
        public let folder: URL
        /// The manifest's name.
        public let name: String
        public let passed: Bool
        /// What the extension reported, in order.
        public let records: [TestRecord]
        /// Why it failed: the first failed assertion or notifyFail, a missing notification, an
        /// uncaught error.
        public let failures: [String]
        public let virtualSeconds: Double
        public let wallSeconds: Double
        public var assertions: Int { records.filter { $0.kind == .assert || $0.kind == .equal }.count }
        /// Tests run by chrome.test.runTests (Chromium's framework reports tests, not passed checks).
        public var tests: Int { records.filter { $0.kind == .result }.count }
    }

    /// Bad input: an extension folder, a manifest, a page file.
    public struct InputError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Reads and checks everything `run` needs, so that bad input stops a run before any test.
    /// - Throws: ``InputError`` or ``ManifestError``.
    public static func prepare(_ folder: URL, options: Options) throws -> (ExtensionBundle, [String: String]) {
        let bundle = try ExtensionBundle(folder: folder, profile: options.profile)
        try bundle.validateRulesets()
        var pages: [String: String] = [:]
        for page in options.pages {
            guard let data = FileManager.default.contents(atPath: page.file.path) else {
                throw InputError(description: "\(page.file.path): cannot read the page for \(page.url)")
            }
            guard let text = String(data: data, encoding: .utf8) else {
                throw InputError(description: "\(page.file.path): the page for \(page.url) is not UTF-8 text")
            }
            pages[page.url] = text
        }
        return (bundle.withholding(options.withheld), pages)
    }

    /// Runs the tests of the extension in `folder`.
    /// - Throws: ``InputError`` or ``ManifestError`` for bad input (nothing ran).
    public static func run(_ folder: URL, options: Options) throws -> Result {
        let (bundle, pages) = try prepare(folder, options: options)
        let started = Date()
        var browserOptions = Browser.Options()
        browserOptions.profile = options.profile
        browserOptions.testAPI = true
        browserOptions.testConfigJSON = options.config
        let browser = try Browser(options: browserOptions)
        browser.pageSource = { pages[$0] }
        for host in options.grants.isEmpty ? ["*"] : options.grants { browser.setSitePermission(.always, for: host) }
        var failures: [String] = []
        let begin = browser.loop.now
        do {
            try browser.install(bundle)
            for page in options.pages { _ = try browser.openTab(url: page.url) }
            try browser.loop.run(until: { finished(browser.testRecords) }, limit: options.budget, what: "notifyPass or notifyFail")
        } catch let error as LoopError {
            let records = browser.testRecords
            if records.isEmpty {
                failures.append("the extension never used its test API (\(error))")
            } else {
                let waiting = Set(records.map(\.context)).subtracting(records.filter { $0.kind == .pass || $0.kind == .fail }.map(\.context))
                failures.append("no notifyPass or notifyFail from \(waiting.sorted().joined(separator: ", ")) (\(error))")
            }
        }
        let records = browser.testRecords
        for record in records where record.isFailure { failures.append(record.summary) }
        for event in browser.trace.events where event.channel == .error { failures.append("uncaught in \(event.location): \(event.text)") }
        return Result(folder: folder, name: bundle.manifest.name, passed: failures.isEmpty, records: records, failures: failures,
                      virtualSeconds: (browser.loop.now - begin).milliseconds / 1000, wallSeconds: Date().timeIntervalSince(started))
    }

    /// True once every context that reported anything has notified pass or fail.
    static func finished(_ records: [TestRecord]) -> Bool {
        guard !records.isEmpty else { return false }
        let notified = Set(records.filter { $0.kind == .pass || $0.kind == .fail }.map(\.context))
        return Set(records.map(\.context)).isSubset(of: notified)
    }
}
