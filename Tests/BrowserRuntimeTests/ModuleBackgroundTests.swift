import BrowserRuntime
import Foundation
import TestSupport
import Testing
import WebRuntime

/// Module backgrounds (`"background": {"type": "module"}`), as WebKit's WebExtension runs them:
/// a module service worker, or a background page whose scripts are module scripts; content
/// scripts' `import()` of web-accessible modules; module scripts in extension pages.
@Suite struct ModuleBackgroundTests {
    static let folder = Support.fixtures.appendingPathComponent("extensions/module-background")

    @Test func aModuleServiceWorkerImportsTheExtensionsFilesWithLiveBindingsAndTopLevelAwait() throws {
        let (browser, host) = try Support.browser(with: try ExtensionBundle(folder: Self.folder), pages: [:], permission: .always, profile: .safari)
        let worker = try #require(host.backgroundWorld)
        let report = try #require(try Support.eval(worker, "JSON.stringify(globalThis.report)") as? String)
        #expect(report == #"{"live":[0,1,1],"greeting":"hello worker after 1 bump(s)","thisValue":"undefined","notGlobal":"undefined","metaURL":"\#(host.bundle.url("background.js"))"}"#)
        #expect(try Support.await(browser, worker, "return await globalThis.dynamicImport") as? String
            == "TypeError: Dynamic-import is not available in Worklets or ServiceWorkers")
        #expect(browser.trace.dump(channels: [.error]).isEmpty)
    }

    /// The content script's `import()` runs the module in the content world, fetched as a
    /// web-accessible resource; the module map is the world's own (the worker's `count` is not
    /// the content world's).
    @Test func aContentScriptImportsAWebAccessibleModule() throws {
        let (browser, host) = try Support.browser(with: try ExtensionBundle(folder: Self.folder), pages: [:], permission: .always, profile: .safari)
        let tab = try browser.openTab(url: "https://shop.test/")
        try browser.loop.runUntilIdle()
        let page = try #require(tab.page)
        let content = try #require(page.world(named: "content:\(host.id)"))
        #expect(try Support.await(browser, content, "return await globalThis.contentImport") as? String == "adv-module-content 1")
        #expect(try Support.eval(page.pageWorld, "document.documentElement.dataset.marked") as? String == "adv-module-content")
        #expect(try Support.await(browser, content, "return (await importFromContent('lib/counter.js')).count") as? Double == 0)
        // A module that is not web-accessible cannot be imported from the page's content world.
        #expect(try Support.await(browser, content, "return importFromContent('lib/greeting.js').then(() => 'loaded', (e) => e.message)") as? String
            == "Importing a module script failed.")
        #expect(page.errors.isEmpty)
    }

    /// `background.scripts` with `type: module` is a background page of module scripts (WebKit's
    /// generated page has a `<script type="module">` for each): they run in order, and `import()`
    /// works there, as it does in a module script of an extension page.
    @Test func moduleBackgroundScriptsAndExtensionPagesImport() throws {
        let folder = Support.scratchRoot.appendingPathComponent("module-background-page-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: Self.folder, to: folder)
        let manifest = """
            { "manifest_version": 3, "name": "Module Pages", "version": "1.0",
              "background": { "scripts": ["first.js", "second.js"], "type": "module" },
              "action": { "default_popup": "popup.html" } }
            """
        try manifest.write(to: folder.appendingPathComponent("manifest.json"), atomically: true, encoding: .utf8)
        try "import { bump, count } from './lib/counter.js'; bump(); globalThis.order = ['first ' + count];"
            .write(to: folder.appendingPathComponent("first.js"), atomically: true, encoding: .utf8)
        try "import { count } from './lib/counter.js'; globalThis.order.push('second ' + count); globalThis.later = import('./lib/greeting.js').then((m) => m.default('page'));"
            .write(to: folder.appendingPathComponent("second.js"), atomically: true, encoding: .utf8)
        // (External scripts only: an extension page's policy refuses inline ones.)
        try "<!DOCTYPE html><body><script type=\"module\" src=\"popup.js\"></script><script src=\"classic.js\"></script></body>"
            .write(to: folder.appendingPathComponent("popup.html"), atomically: true, encoding: .utf8)
        try "document.body.dataset.classic = typeof window.popupCount;"
            .write(to: folder.appendingPathComponent("classic.js"), atomically: true, encoding: .utf8)
        try "import { count } from './lib/counter.js'; window.popupCount = count; document.body.dataset.module = 'ran';"
            .write(to: folder.appendingPathComponent("popup.js"), atomically: true, encoding: .utf8)

        let (browser, host) = try Support.browser(with: try ExtensionBundle(folder: folder), pages: [:], permission: .always, profile: .safari)
        let background = try #require(host.backgroundWorld)
        #expect(try Support.eval(background, "globalThis.order.join()") as? String == "first 1,second 1")
        #expect(try Support.await(browser, background, "return await globalThis.later") as? String == "hello page after 1 bump(s)")

        _ = try browser.openTab(url: "https://shop.test/")
        let popup = try browser.openPopup(host)
        try browser.loop.runUntilIdle()
        // The module script is deferred: the classic script after it ran first.
        #expect(try Support.eval(popup.pageWorld, "[document.body.dataset.classic, document.body.dataset.module, window.popupCount].join()") as? String == "undefined,ran,0")
        #expect(browser.trace.dump(channels: [.error]).isEmpty)
    }

    /// A module background that fails (a missing file, a syntax error) is reported on the
    /// background page, as an uncaught error.
    @Test func aFailingModuleBackgroundIsReported() throws {
        let folder = Support.scratchRoot.appendingPathComponent("module-background-broken-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try #"{ "manifest_version": 3, "name": "Broken", "version": "1.0", "background": { "service_worker": "worker.js", "type": "module" } }"#
            .write(to: folder.appendingPathComponent("manifest.json"), atomically: true, encoding: .utf8)
        try "import './gone.js';\n".write(to: folder.appendingPathComponent("worker.js"), atomically: true, encoding: .utf8)
        let (browser, _) = try Support.browser(with: try ExtensionBundle(folder: folder), pages: [:], permission: .always, profile: .safari)
        let errors = browser.trace.dump(channels: [.error])
        #expect(errors.contains("TypeError: Importing a module script failed."))
        #expect(errors.contains("during background module worker.js"))
    }
}
