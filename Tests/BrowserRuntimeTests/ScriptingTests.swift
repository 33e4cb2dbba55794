import BrowserRuntime
import TestSupport
import Testing
import WebRuntime

/// `browser.scripting` as Safari defines it (WebKit's WebExtensionAPIScriptingCocoa.mm for the
/// checks in the caller, WebExtensionContextAPIScriptingCocoa.mm and
/// WebExtensionDynamicScriptsCocoa.mm for what the browser does), with Chromium's differences.
@Suite struct ScriptingTests {
    static let pages: [String: String] = [
        "https://news.test/": """
            <!DOCTYPE html><html><head><title>news</title>
            <style>#ad { display: block !important; }</style></head><body>
            <div id="ad" style="display: block !important">ad</div>
            <iframe id="inner" src="https://news.test/inner.html"></iframe>
            <iframe id="other" src="https://other.example/frame.html"></iframe>
            <script>var pageSecret = "page world";</script>
            </body></html>
            """,
        "https://news.test/inner.html": "<!DOCTYPE html><html><body><p id='ad'>inner ad</p></body></html>",
        "https://other.example/frame.html": "<!DOCTYPE html><p id='ad'>elsewhere</p>",
        "https://news.test/late.html": "<!DOCTYPE html><html><body><div id='ad'>late</div></body></html>",
    ]

    static func probe(profile: Browser.Profile = .safari, permission: SitePermission = .always) throws -> (Browser, ExtensionHost, Tab, World) {
        let bundle = try ExtensionBundle(folder: Support.fixtures.appendingPathComponent("extensions/scripting-probe"))
        let (browser, host) = try Support.browser(with: bundle, pages: pages, permission: permission, profile: profile)
        let tab = try browser.openTab(url: "https://news.test/")
        try browser.loop.runUntilIdle()
        return (browser, host, tab, try #require(host.backgroundWorld))
    }

    @Test func theNamespaceNeedsThePermissionAndAnExtensionPage() throws {
        let (browser, host, tab, worker) = try Self.probe()
        #expect(try Support.eval(worker, "Object.keys(browser.scripting).sort().join()") as? String
            == "executeScript,getRegisteredContentScripts,insertCSS,registerContentScripts,removeCSS,unregisterContentScripts,updateContentScripts")
        let content = try #require(tab.page?.world(named: "content:\(host.id)"))
        #expect(try Support.eval(content, "typeof browser.scripting") as? String == "undefined")
        let (plain, plainHost) = try Support.browser()
        #expect(try Support.eval(try #require(plainHost.backgroundWorld), "typeof browser.scripting") as? String == "undefined")
        withExtendedLifetime((browser, plain)) {}
    }

    /// Bad details throw in the caller, in WebKit's words, and nothing is sent.
    @Test func badDetailsThrowAtOnceInWebKitsWords() throws {
        let (browser, _, tab, worker) = try Self.probe()
        let attempts = [
            "browser.scripting.executeScript()",
            "browser.scripting.executeScript(5)",
            "browser.scripting.executeScript({ func: () => 1 })",
            "browser.scripting.executeScript({ target: { tabId: \(tab.id) } })",
            "browser.scripting.executeScript({ target: { tabId: \(tab.id) }, files: ['a.js'], func: () => 1 })",
            "browser.scripting.executeScript({ target: { tabId: \(tab.id) }, files: [] })",
            "browser.scripting.executeScript({ target: { tabId: \(tab.id) }, files: ['a.js', 2] })",
            "browser.scripting.executeScript({ target: { tabId: \(tab.id) }, func: 'code' })",
            "browser.scripting.executeScript({ target: { tabId: \(tab.id) }, files: ['a.js'], args: [1] })",
            "browser.scripting.executeScript({ target: { tabId: \(tab.id) }, func: () => 1, world: 'page' })",
            "browser.scripting.executeScript({ target: { tabId: 'x' }, func: () => 1 })",
            "browser.scripting.executeScript({ target: { tabId: 1.5 }, func: () => 1 })",
            "browser.scripting.executeScript({ target: { tabId: \(tab.id), allFrames: true, frameIds: [0] }, func: () => 1 })",
            "browser.scripting.executeScript({ target: { tabId: \(tab.id), frameIds: [-1] }, func: () => 1 })",
            "browser.scripting.executeScript({ target: { tabId: \(tab.id) }, func: (x) => x, args: [1n] })",
            "browser.scripting.insertCSS({ target: { tabId: \(tab.id) } })",
            "browser.scripting.insertCSS({ target: { tabId: \(tab.id) }, css: 'a{}', files: ['b.css'] })",
            "browser.scripting.insertCSS({ target: { tabId: \(tab.id) }, css: 'a{}', origin: 'agent' })",
            "browser.scripting.removeCSS({ css: 'a{}' })",
        ]
        let messages = try Support.eval(worker, """
            [\(attempts.map { "() => \($0)" }.joined(separator: ", "))].map((attempt) => {
              try { const answer = attempt(); return answer instanceof Promise ? 'promise' : 'returned'; }
              catch (error) { return (error instanceof Error ? '' : "not this realm's: ") + error.constructor.name + ': ' + error.message; }
            })
            """) as? [Any]
        let expected = [
            "promise", // the argument count is checked as every method's is: a rejected promise of the caller's realm
            "Error: Invalid call to scripting.executeScript(). The 'details' value is invalid, because an object is expected, but a number was provided.",
            "Error: Invalid call to scripting.executeScript(). The 'details' value is invalid, because it is missing required keys: 'target'.",
            "Error: Invalid call to scripting.executeScript(). The 'details' value is invalid, because it must specify either 'func' or 'files''.",
            "Error: Invalid call to scripting.executeScript(). The 'details' value is invalid, because it cannot specify both 'files' and 'func'.",
            "Error: Invalid call to scripting.executeScript(). The 'files' value is invalid, because at least one file must be specified.",
            "Error: Invalid call to scripting.executeScript(). The 'details' value is invalid, because 'files' is expected to be an array of strings, but a number was provided in the array.",
            "Error: Invalid call to scripting.executeScript(). The 'func' value is invalid, because it is not a function.",
            "Error: Invalid call to scripting.executeScript(). The 'details' value is invalid, because it must specify both 'func' and 'args'.",
            "Error: Invalid call to scripting.executeScript(). The 'world' value is invalid, because it must specify either 'isolated' or 'main'.",
            "Error: Invalid call to scripting.executeScript(). The 'target' value is invalid, because 'tabId' is expected to be a number, but a string was provided.",
            "Error: Invalid call to scripting.executeScript(). The 'tabId' value is invalid, because '1.5' is not a tab identifier.",
            "Error: Invalid call to scripting.executeScript(). The 'target' value is invalid, because it cannot specify both 'allFrames' and 'frameIds'.",
            "Error: Invalid call to scripting.executeScript(). The 'frameIds' value is invalid, because '-1' is not a frame identifier.",
            "Error: Invalid call to scripting.executeScript(). The 'args' value is invalid, because it is not JSON-serializable.",
            "Error: Invalid call to scripting.insertCSS(). The 'details' value is invalid, because it must specify either 'css' or 'files'.",
            "Error: Invalid call to scripting.insertCSS(). The 'details' value is invalid, because it cannot specify both 'css' and 'files'.",
            "Error: Invalid call to scripting.insertCSS(). The 'origin' value is invalid, because it must specify either 'author' or 'user'.",
            "Error: Invalid call to scripting.removeCSS(). The 'details' value is invalid, because it is missing required keys: 'target'.",
        ]
        #expect(messages?.count == expected.count)
        for (got, want) in zip(messages ?? [], expected) { #expect(got as? String == want) }
        // None of them reached the browser.
        try browser.loop.runUntilIdle()
        #expect(!browser.trace.dump().contains("scripting.executeScript("))
    }

    /// A function runs in the extension's content world (its content scripts' globals, not the
    /// page's) or with `world: 'MAIN'` in the page's; its arguments arrive as JSON and a promise
    /// it returns is awaited; each frame answers with its ids.
    @Test func aFunctionRunsInTheWorldItNamesWithItsArguments() throws {
        let (browser, _, tab, worker) = try Self.probe()
        let isolated = try Support.await(browser, worker, """
            const results = await browser.scripting.executeScript({ target: { tabId: \(tab.id) },
              func: (a, b) => [typeof pageSecret, contentMark, a + b.n, typeof browser.runtime.id].join(' '), args: [40, { n: 2 }] });
            return JSON.stringify(results);
            """) as? String
        #expect(isolated == #"[{"documentId":"00000000-0000-4000-8000-000000000002","frameId":0,"result":"undefined content world 42 string"}]"#)
        let main = try Support.await(browser, worker, """
            const results = await browser.scripting.executeScript({ target: { tabId: \(tab.id) }, world: 'MAIN',
              func: () => new Promise((resolve) => setTimeout(() => resolve([pageSecret, typeof contentMark, typeof browser]), 50)) });
            return JSON.stringify(results.map((r) => r.result));
            """) as? String
        #expect(main == #"[["page world","undefined","undefined"]]"#)
        // Every frame it may access, top first; other.example is not one of them.
        let everywhere = try Support.await(browser, worker, """
            const results = await browser.scripting.executeScript({ target: { tabId: \(tab.id), allFrames: true }, files: ['inject.js'] });
            return results.map((r) => r.frameId + ' ' + r.result).join('|');
            """) as? String
        #expect(everywhere == "0 https://news.test/ string 1|1 https://news.test/inner.html undefined 1",
                 "the inner frame's content world is made for the call: no content script of the extension runs there")
        let chosen = try Support.await(browser, worker, """
            const results = await browser.scripting.executeScript({ target: { tabId: \(tab.id), frameIds: [1] }, func: () => location.pathname });
            return results.map((r) => r.frameId + ' ' + r.result).join('|');
            """) as? String
        #expect(chosen == "1 /inner.html")
    }

    @Test func failuresAreReportedAsEachBrowserReportsThem() throws {
        for profile in [Browser.Profile.safari, .chromium] {
            let (browser, _, tab, worker) = try Self.probe(profile: profile)
            let answers = try Support.await(browser, worker, """
                const attempt = (details) => chrome.scripting.executeScript(details).then((r) => JSON.stringify(r.map((e) => [e.result, e.error])), (e) => 'rejected: ' + e.message);
                return [
                  await attempt({ target: { tabId: 99 }, func: () => 1 }),
                  await attempt({ target: { tabId: \(tab.id) }, func: () => { throw new TypeError('boom'); } }),
                  await attempt({ target: { tabId: \(tab.id) }, func: () => Promise.reject(new Error('later')) }),
                  await attempt({ target: { tabId: \(tab.id), frameIds: [7] }, func: () => 1 }),
                ].join('|');
                """) as? String
            if profile == .safari {
                #expect(answers == "rejected: Invalid call to scripting.executeScript(). Tab not found.|"
                    + #"[[null,"A JavaScript exception occurred"]]|[[null,"A JavaScript exception occurred"]]|[]"#)
            } else {
                #expect(answers == "rejected: No tab with id: 99.|rejected: TypeError: boom|rejected: Error: later|rejected: No frame with id 7 in tab \(tab.id).")
            }
        }
        let (denied, _, tab, worker) = try Self.probe(permission: .denied)
        let refused = try Support.await(denied, worker, """
            const attempt = (call) => call.then(() => 'resolved', (e) => e.message);
            return [await attempt(chrome.scripting.executeScript({ target: { tabId: \(tab.id) }, func: () => 1 })),
                    await attempt(chrome.scripting.insertCSS({ target: { tabId: \(tab.id) }, css: 'p {}' })),
                    await attempt(chrome.scripting.removeCSS({ target: { tabId: \(tab.id) }, css: 'p {}' }))].join('|');
            """) as? String
        #expect(refused == "Invalid call to scripting.executeScript(). This extension does not have access to this tab.|"
            + "Invalid call to scripting.insertCSS(). This extension does not have access to this tab.|resolved")
    }

    /// A user-origin sheet beats every author declaration, inline `!important` included; the page
    /// cannot see or reach it; removeCSS takes it away and the top frame's navigation drops it.
    @Test func aUserSheetBeatsThePageAndIsOutOfItsReach() throws {
        let (browser, _, tab, worker) = try Self.probe()
        let page = try #require(tab.page)
        func display() throws -> String { try page.computedStyle("#ad", "display") }
        #expect(try display() == "block")
        _ = try Support.await(browser, worker, """
            await browser.scripting.insertCSS({ target: { tabId: \(tab.id) }, css: '#ad { display: none !important; }' });
            """)
        #expect(try display() == "block", "author level (the default) loses to the page's !important")
        _ = try Support.await(browser, worker, """
            await browser.scripting.insertCSS({ target: { tabId: \(tab.id) }, css: '#ad { display: none !important; }', origin: 'USER' });
            """)
        #expect(try display() == "none")
        #expect(try Support.eval(page.pageWorld, "document.styleSheets.length") as? Double == 1)
        _ = try Support.eval(page.pageWorld, "document.querySelector('style').remove(); document.getElementById('ad').style.setProperty('display', 'flex', 'important')")
        #expect(try display() == "none", "nothing the page does to its own style reaches a user sheet")
        // The inner frame was not a target (the top frame only, without allFrames).
        let inner = try #require(tab.frame(1)?.page)
        #expect(try inner.computedStyle("#ad", "display") == "block")
        _ = try Support.await(browser, worker, """
            await browser.scripting.removeCSS({ target: { tabId: \(tab.id) }, css: '#ad { display: none !important; }' });
            """)
        #expect(try display() == "flex")
        #expect(browser.trace.dump().contains("tab\(tab.id)/content dom user stylesheet (33 bytes, user level, scripting.insertCSS)"))
        #expect(browser.trace.dump().contains("tab\(tab.id)/content dom user stylesheet removed (33 bytes, scripting.removeCSS)"))
    }

    @Test func allFramesReachesFramesLoadedLaterUntilTheTopFrameNavigates() throws {
        let (browser, _, tab, worker) = try Self.probe()
        _ = try Support.await(browser, worker, """
            await browser.scripting.insertCSS({ target: { tabId: \(tab.id), allFrames: true }, files: ['hide.css'], origin: 'user' });
            """)
        let top = try #require(tab.page)
        #expect(try top.computedStyle("#ad", "display") == "none")
        #expect(try tab.frame(1)?.page?.computedStyle("#ad", "display") == "none")
        #expect(try tab.frame(2)?.page?.computedStyle("#ad", "display") == "block", "other.example is not the extension's")
        _ = try Support.eval(top.pageWorld, "const f = document.createElement('iframe'); f.src = '/late.html'; document.body.append(f)")
        try browser.loop.runUntilIdle()
        let late = try #require(tab.allFrames.last?.page)
        #expect(late.url == "https://news.test/late.html")
        #expect(try late.computedStyle("#ad", "display") == "none")
        try browser.navigate(tab, to: "https://news.test/late.html")
        try browser.loop.runUntilIdle()
        #expect(try tab.page?.computedStyle("#ad", "display") == "block")
    }
}
