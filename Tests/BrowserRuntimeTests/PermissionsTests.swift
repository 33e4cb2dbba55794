import BrowserRuntime
import Foundation
import TestSupport
import Testing
import WebRuntime

/// `permissions` (issue 23, point 1): optional permissions and host patterns asked for at run
/// time, needing a user gesture, answered by the prompt, with each browser's checks and words.
@Suite struct PermissionsTests {
    func browser(_ profile: Browser.Profile, accept: Bool = true) throws -> (Browser, ExtensionHost, World) {
        let browser = try Support.emptyBrowser(profile: profile)
        browser.pageSource = { $0.hasPrefix("https://") ? "<p>page</p>" : nil }
        browser.permissionPrompt = { _, _, _ in accept }
        let folder = try Support.extensionFolder("permissions", [
            "manifest.json": """
            {"manifest_version": 3, "name": "Asks", "version": "1", "background": {"service_worker": "w.js"},
             "permissions": ["storage"], "optional_permissions": ["alarms", "tabs"],
             "host_permissions": ["https://required.example/*"], "optional_host_permissions": ["https://*.optional.example/*"]}
            """,
            "w.js": """
            globalThis.events = [];
            chrome.permissions.onAdded.addListener((p) => events.push('added ' + JSON.stringify(p)));
            chrome.permissions.onRemoved.addListener((p) => events.push('removed ' + JSON.stringify(p)));
            """,
        ])
        let host = try browser.install(try ExtensionBundle(folder: folder))
        try browser.loop.runUntilIdle()
        return (browser, host, try #require(host.backgroundWorld))
    }

    func run(_ browser: Browser, _ world: World, _ script: String, gesture: Bool = false) throws -> String? {
        try (gesture ? browser.withUserGesture { try Support.await(browser, world, script) } : Support.await(browser, world, script)) as? String
    }

    @Test(arguments: [Browser.Profile.safari, .chromium])
    func aGrantedOptionalPermissionIsHeldAndCanBeGivenBack(_ profile: Browser.Profile) throws {
        let (browser, host, worker) = try browser(profile)
        #expect(try run(browser, worker, "return String(await chrome.permissions.contains({ permissions: ['alarms'] }))") == "false")
        let granted = try run(browser, worker, "return String(await chrome.permissions.request({ permissions: ['alarms'], origins: ['https://news.optional.example/*'] }))", gesture: true)
        #expect(granted == "true")
        #expect(try run(browser, worker, "return String(await chrome.permissions.contains({ permissions: ['alarms'], origins: ['https://news.optional.example/*'] }))") == "true")
        #expect(browser.trace.dump(channels: [.api]).contains(#"permission prompt for Asks: {"origins":["https://news.optional.example/*"],"permissions":["alarms"]} accepted"#))
        // A granted host pattern is access to the site: the extension sees its tabs' URLs.
        let tab = try browser.openTab(url: "https://news.optional.example/")
        let other = try browser.openTab(url: "https://other.example/")
        try browser.loop.runUntilIdle()
        let urls = try run(browser, worker, "return [(await chrome.tabs.get(\(tab.id))).url, (await chrome.tabs.get(\(other.id))).url].map(String).join()")
        #expect(urls == "https://news.optional.example/,undefined")
        let all = try run(browser, worker, "return JSON.stringify(await chrome.permissions.getAll())")
        #expect(all?.contains(#""permissions":["alarms","storage"]"#) == true, "\(all ?? "")")
        #expect(all?.contains("https://news.optional.example/*") == true)
        #expect(try run(browser, worker, "return String(await chrome.permissions.remove({ permissions: ['alarms'] }))") == "true")
        try browser.loop.runUntilIdle()
        let events = try Support.eval(worker, "events.join('|')") as? String
        #expect(events == #"added {"origins":["https://news.optional.example/*"],"permissions":["alarms"]}|removed {"origins":[],"permissions":["alarms"]}"#)
        _ = host
    }

    @Test func aRequestNeedsAGestureAndAnAnswerInEachBrowsersOrder() throws {
        // Chrome checks the gesture first; Safari checks names first.
        let (chrome, _, chromeWorker) = try browser(.chromium)
        #expect(try run(chrome, chromeWorker, "try { await chrome.permissions.request({ permissions: ['bogus'] }) } catch (e) { return e.message }") == "This function must be called during a user gesture")
        #expect(try run(chrome, chromeWorker, "try { await chrome.permissions.request({ permissions: ['bogus'] }) } catch (e) { return e.message }", gesture: true) == "'bogus' is not a recognized permission.")
        #expect(try run(chrome, chromeWorker, "try { await chrome.permissions.request({ permissions: ['cookies'] }) } catch (e) { return e.message }", gesture: true) == "Only permissions specified in the manifest may be requested.")
        let (safari, _, safariWorker) = try browser(.safari)
        #expect(try run(safari, safariWorker, "try { await browser.permissions.request({ permissions: ['bogus'] }) } catch (e) { return e.message }")
            == "Invalid call to permissions.request(). The 'permissions' value is invalid, because 'bogus' is not a valid permission.")
        #expect(try run(safari, safariWorker, "try { await browser.permissions.request({ permissions: ['alarms'] }) } catch (e) { return e.message }")
            == "Invalid call to permissions.request(). Must be called during a user gesture.")
        #expect(try run(safari, safariWorker, "try { await browser.permissions.request({ origins: ['https://elsewhere.example/*'] }) } catch (e) { return e.message }", gesture: true)
            == "Invalid call to permissions.request(). The 'origins' value is invalid, because only permissions specified in the manifest may be requested.")
        // The shape is checked in the caller.
        let thrown = try Support.eval(safariWorker, "try { browser.permissions.contains({ permissions: 'alarms' }); 'no' } catch (e) { e.message }") as? String
        #expect(thrown == "Invalid call to permissions.contains(). The 'permissions' value is invalid, because 'permissions' is expected to be an array of strings, but a string was provided.")
        // Declined: nothing granted.
        let (declining, _, declinedWorker) = try browser(.safari, accept: false)
        #expect(try run(declining, declinedWorker, "return String(await browser.permissions.request({ permissions: ['tabs'] }))", gesture: true) == "false")
        #expect(try run(declining, declinedWorker, "return String(await browser.permissions.contains({ permissions: ['tabs'] }))") == "false")
    }

    @Test func requiredPermissionsCannotBeRemoved() throws {
        let (chrome, _, chromeWorker) = try browser(.chromium)
        #expect(try run(chrome, chromeWorker, "try { await chrome.permissions.remove({ permissions: ['storage'] }) } catch (e) { return e.message }") == "You cannot remove required permissions.")
        let (safari, _, safariWorker) = try browser(.safari)
        #expect(try run(safari, safariWorker, "try { await browser.permissions.remove({ origins: ['https://required.example/*'] }) } catch (e) { return e.message }")
            == "Invalid call to permissions.remove(). The 'origins' value is invalid, because required permissions cannot be removed.")
        // Removing an optional one never granted is no error.
        #expect(try run(safari, safariWorker, "return String(await browser.permissions.remove({ permissions: ['tabs'] }))") == "true")
    }

    @Test func aNamespaceAnOptionalPermissionGivesAppearsInPagesMadeAfterTheGrant() throws {
        let (browser, host, worker) = try browser(.chromium)
        #expect(try Support.eval(worker, "typeof chrome.alarms") as? String == "undefined")
        _ = try run(browser, worker, "await chrome.permissions.request({ permissions: ['alarms'] })", gesture: true)
        browser.suspendBackground(of: host)
        try browser.wakeBackground(of: host)
        #expect(try Support.eval(try #require(host.backgroundWorld), "typeof chrome.alarms.create") as? String == "function")
    }

    @Test func safariListsGrantedSitesAndChromeItsEffectiveHosts() throws {
        let (chrome, _, chromeWorker) = try browser(.chromium)
        #expect(try run(chrome, chromeWorker, "return (await chrome.permissions.getAll()).origins.join()") == "https://required.example/*")
        let (safari, _, safariWorker) = try browser(.safari)
        #expect(try run(safari, safariWorker, "return (await browser.permissions.getAll()).origins.join()") == "")
        safari.setSitePermission(.always, for: "required.example")
        #expect(try run(safari, safariWorker, "return (await browser.permissions.getAll()).origins.join()") == "*://required.example/*")
    }
}
