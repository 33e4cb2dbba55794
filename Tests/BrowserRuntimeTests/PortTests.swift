import BrowserRuntime
import TestSupport
import Testing
import WebRuntime

@Suite struct PortTests {
    @Test func portsCarryMessagesBothWaysWithTheSender() throws {
        let (browser, host) = try Support.outlineBrowser(pages: ["https://news.test/": "<p>top</p>"])
        let tab = try browser.openTab(url: "https://news.test/")
        try browser.loop.runUntilIdle()
        // outline.js said hello over its port; the worker answered with a mark.
        #expect(Support.backgroundLogs(browser).contains("hello from frame 0 tab \(tab.id) https://news.test/ top"))
        #expect(Support.logs(try #require(tab.page)).contains("marked blue"))
        let api = browser.trace.dump(channels: [.api])
        #expect(api.contains(##"tab1/content api runtime.connect port "outline"#1"##))
        #expect(api.contains(##"tab1/content api port "outline"#1 postMessage({"elements":"##))
        #expect(api.contains(##"background api port "outline"#1 postMessage({"color":"blue","type":"mark"})"##))
        #expect(host.backgroundWorld != nil)
    }

    /// runtime.connectNative: each message goes to the native host and its answer comes back on
    /// the port; a failed message, or no native host at all, disconnects it with the error.
    @Test func aNativePortCarriesEachMessageToTheAppAndItsAnswerBack() throws {
        let browser = try Support.emptyBrowser(profile: .safari)
        let folder = try Support.extensionFolder("native-port", [
            "manifest.json": #"{"manifest_version": 3, "name": "Native", "version": "1", "background": {"service_worker": "w.js"}, "permissions": ["nativeMessaging"]}"#,
            "w.js": """
                globalThis.seen = [];
                globalThis.open = () => {
                  const port = browser.runtime.connectNative("application.id");
                  port.onMessage.addListener((m) => seen.push("answer " + JSON.stringify(m)));
                  port.onDisconnect.addListener(() => seen.push("disconnected " + (browser.runtime.lastError && browser.runtime.lastError.message)));
                  return port;
                };
                """,
        ])
        let host = try browser.install(try ExtensionBundle(folder: folder))
        try browser.loop.runUntilIdle()
        let worker = try #require(host.backgroundWorld)
        #expect(try Support.eval(worker, "typeof chrome.runtime.connectNative + ' ' + open().name") as? String == "function ")
        try browser.loop.runUntilIdle()
        #expect(try Support.eval(worker, "seen.join('|')") as? String == "disconnected Specified native messaging host not found.")
        var received: [String] = []
        host.nativeMessageHandler = { application, message in
            received.append(application + " " + message)
            if message.contains("fail") { return .failure(NativeMessageError("the app refused it")) }
            return .success(message.contains("quiet") ? "null" : #"{"echo":\#(message)}"#)
        }
        try worker.evaluate("seen.length = 0; globalThis.port = open(); port.postMessage({ n: 1 }); port.postMessage('quiet'); port.postMessage({ n: 2 });", sourceURL: "test.js")
        try browser.loop.runUntilIdle()
        #expect(received == [#"application.id {"n":1}"#, #"application.id "quiet""#, #"application.id {"n":2}"#])
        #expect(try Support.eval(worker, "seen.join('|')") as? String == #"answer {"echo":{"n":1}}|answer {"echo":{"n":2}}"#)
        try worker.evaluate("port.postMessage('fail');", sourceURL: "test.js")
        try browser.loop.runUntilIdle()
        #expect(try Support.eval(worker, "seen[seen.length - 1] + ' ' + (() => { try { port.postMessage(3); return 'posted'; } catch (e) { return e.message; } })()") as? String
                == "disconnected the app refused it Attempting to use a disconnected port object")
        #expect(browser.trace.dump(channels: [.api]).contains(#"runtime.connectNative "application.id" port ""#))
    }

    /// A web page externally_connectable names messages the extension: runtime.onMessageExternal
    /// hears it with the page as sender and its answer settles the page's promise; other pages
    /// have no such API, and an extension that does not name the page is not reached.
    @Test(arguments: [Browser.Profile.safari, .chromium])
    func aWebPageTheManifestNamesMessagesTheExtension(profile: Browser.Profile) throws {
        let browser = try Support.emptyBrowser(profile: profile)
        browser.pageSource = { _ in "<title>page</title><p>x</p>" }
        let folder = try Support.extensionFolder("external", [
            "manifest.json": #"{"manifest_version": 3, "name": "External", "version": "1", "background": {"service_worker": "w.js"}, "externally_connectable": {"matches": ["https://app.example/*"]}, "content_scripts": [{"matches": ["<all_urls>"], "js": ["c.js"]}]}"#,
            "w.js": "chrome.runtime.onMessageExternal.addListener((message, sender, respond) => { respond({ got: message, from: sender.url, origin: sender.origin, tab: sender.tab.id, frame: sender.frameId, id: sender.id === undefined }); });",
            "c.js": "document.documentElement.dataset.external = typeof chrome.runtime.onMessageExternal;",
        ])
        let host = try browser.install(try ExtensionBundle(folder: folder))
        browser.setSitePermission(.always, for: "*")
        try browser.loop.runUntilIdle()
        let app = try browser.openTab(url: "https://app.example/start")
        let other = try browser.openTab(url: "https://other.example/")
        try browser.loop.runUntilIdle()
        let page = try #require(app.page).pageWorld
        let name = profile == .safari ? "browser" : "chrome"
        let answer = try Support.await(browser, page, "return JSON.stringify(await \(name).runtime.sendMessage('\(host.id)', { n: 1 }))") as? String
        #expect(answer == #"{"got":{"n":1},"from":"https://app.example/start","origin":"https://app.example","tab":\#(app.id),"frame":0,"id":true}"#)
        let unknown = try Support.await(browser, page, "try { await \(name).runtime.sendMessage('no-such-id', 1); return 'sent' } catch (e) { return e.message }") as? String
        #expect(unknown == "Could not establish connection. Receiving end does not exist.")
        #expect(try Support.eval(try #require(other.page).pageWorld, "typeof \(name)") as? String == "undefined")
        // Content scripts have no onMessageExternal.
        #expect(try Support.eval(page, "document.documentElement.dataset.external") as? String == "undefined")
        #expect(browser.trace.dump(channels: [.api]).contains(#"page runtime.sendMessage("\#(host.id)", {"n":1})"#))
    }

    /// A web page externally_connectable names opens a port: runtime.onConnectExternal hears
    /// it with the page as sender, messages cross both ways, either end's disconnect reaches the
    /// other, a page leaving closes its ports, and an extension that does not name the page
    /// (or an unknown id) leaves the page's port disconnected.
    @Test(arguments: [Browser.Profile.safari, .chromium])
    func aWebPageTheManifestNamesOpensAPort(profile: Browser.Profile) throws {
        let browser = try Support.emptyBrowser(profile: profile)
        browser.pageSource = { _ in "<title>page</title><p>x</p>" }
        let folder = try Support.extensionFolder("external-port", [
            "manifest.json": #"{"manifest_version": 3, "name": "External", "version": "1", "background": {"service_worker": "w.js"}, "externally_connectable": {"matches": ["https://app.example/*"]}}"#,
            "w.js": """
                const log = [];
                globalThis.log = log;
                chrome.runtime.onConnect.addListener(() => log.push("onConnect: wrong event"));
                chrome.runtime.onConnectExternal.addListener((port) => {
                  log.push("connect " + port.name + " " + port.sender.url + " " + port.sender.origin + " tab " + port.sender.tab.id + " frame " + port.sender.frameId + " id " + port.sender.id);
                  port.onMessage.addListener((message) => {
                    log.push("got " + JSON.stringify(message));
                    if (message.bye) port.disconnect(); else port.postMessage({ echo: message });
                  });
                  port.onDisconnect.addListener(() => log.push("disconnected " + port.name));
                });
                """,
        ])
        let host = try browser.install(try ExtensionBundle(folder: folder))
        try browser.loop.runUntilIdle()
        let app = try browser.openTab(url: "https://app.example/start")
        try browser.loop.runUntilIdle()
        let page = try #require(app.page).pageWorld
        let worker = try #require(host.backgroundWorld)
        let name = profile == .safari ? "browser" : "chrome"
        let answer = try Support.await(browser, page, """
            const port = \(name).runtime.connect('\(host.id)', { name: 'feed' });
            const echoed = await new Promise((resolve) => { port.onMessage.addListener((m, p) => resolve([m, p === port])); port.postMessage({ n: 1 }); });
            const closed = new Promise((resolve) => port.onDisconnect.addListener((p) => resolve(p === port)));
            port.postMessage({ bye: true });
            const byExtension = await closed;
            let thrown;
            try { port.postMessage(2); } catch (e) { thrown = e.message; }
            return JSON.stringify({ name: port.name, echoed, byExtension, thrown });
            """) as? String
        #expect(answer == #"{"name":"feed","echoed":[{"echo":{"n":1}},true],"byExtension":true,"thrown":"Attempting to use a disconnected port object"}"#)
        // The page disconnects one; another goes with the page.
        _ = try Support.eval(page, "\(name).runtime.connect('\(host.id)', { name: 'mine' }).disconnect(); globalThis.kept = \(name).runtime.connect('\(host.id)', { name: 'kept' }); 0")
        try browser.loop.runUntilIdle()
        try browser.navigate(app, to: "https://app.example/next")
        try browser.loop.runUntilIdle()
        let log = try Support.eval(worker, "log.join('|')") as? String
        #expect(log == "connect feed https://app.example/start https://app.example tab \(app.id) frame 0 id undefined|got {\"n\":1}|got {\"bye\":true}|connect kept https://app.example/start https://app.example tab \(app.id) frame 0 id undefined|disconnected kept",
                "a page that disconnected before anyone accepted is never offered; the one it kept closes with the page")
        // An unknown extension: the page's port disconnects.
        let refused = try Support.await(browser, try #require(app.page).pageWorld, """
            const port = \(name).runtime.connect('no-such-id');
            return await new Promise((resolve) => port.onDisconnect.addListener(() => resolve('disconnected')));
            """) as? String
        #expect(refused == "disconnected")
        #expect(browser.trace.dump(channels: [.api]).contains(#"page runtime.connect("\#(host.id)") port "feed""#))
    }

    @Test func aClosingPageDisconnectsItsPorts() throws {
        let (browser, _) = try Support.outlineBrowser(pages: ["https://news.test/": "<p>top</p>"])
        let tab = try browser.openTab(url: "https://news.test/")
        try browser.loop.runUntilIdle()
        #expect(!Support.backgroundLogs(browser).contains("port of frame 0 closed"))
        try browser.navigate(tab, to: "https://elsewhere.org/")
        try browser.loop.runUntilIdle()
        #expect(Support.backgroundLogs(browser).contains("port of frame 0 closed"))
    }

    @Test func noReceiverDisconnectsWithLastError() throws {
        let (browser, host) = try Support.browser()
        let tab = try browser.openTab(url: "https://news.example/")
        try browser.loop.runUntilIdle()
        let content = try #require(try tab.page?.contentWorld(for: host.id))
        let error = try Support.await(browser, content, """
            const port = browser.runtime.connect({ name: "nobody" });
            const message = await new Promise((resolve) => port.onDisconnect.addListener(() => resolve(browser.runtime.lastError && browser.runtime.lastError.message)));
            let thrown;
            try { port.postMessage(1); } catch (e) { thrown = e.message; }
            return [message, String(browser.runtime.lastError), thrown].join("|");
            """) as? String
        #expect(error == "Could not establish connection. Receiving end does not exist.|undefined|Attempting to use a disconnected port object")
    }

    @Test func disconnectReachesTheOtherEndOnly() throws {
        let (browser, host) = try Support.outlineBrowser(pages: ["https://news.test/": "<p>top</p>"])
        let tab = try browser.openTab(url: "https://news.test/")
        try browser.loop.runUntilIdle()
        let worker = try #require(host.backgroundWorld)
        let content = try #require(try tab.page?.contentWorld(for: host.id))
        try worker.evaluate("""
            browser.runtime.onConnect.addListener((port) => {
              if (port.name !== "echo") return;
              port.onMessage.addListener((m) => { port.postMessage({ echo: m, frame: port.sender.frameId, url: port.sender.url }); port.disconnect(); });
              port.onDisconnect.addListener(() => console.log("worker heard a disconnect it made"));
            });
            """, sourceURL: "test")
        let result = try Support.await(browser, content, """
            const port = browser.runtime.connect({ name: "echo" });
            const log = [];
            const done = new Promise((resolve) => port.onDisconnect.addListener(() => { log.push("disconnected:" + String(browser.runtime.lastError)); resolve(); }));
            port.onMessage.addListener((m) => log.push(JSON.stringify(m)));
            port.postMessage("hi");
            await done;
            return log.join(" ");
            """) as? String
        #expect(result == #"{"echo":"hi","frame":0,"url":"https://news.test/"} disconnected:undefined"#)
        try browser.loop.runUntilIdle()
        #expect(!Support.backgroundLogs(browser).contains("worker heard a disconnect it made"))
    }

    @Test func tabsConnectReachesTheNamedFrame() throws {
        let (browser, host) = try Support.outlineBrowser()
        let tab = try browser.openTab(url: "https://news.test/")
        try browser.loop.runUntilIdle()
        let ad = try #require(tab.allFrames.first { $0.url == "https://ads.test/ad.html" })
        try #require(try ad.page?.contentWorld(for: host.id)).evaluate("""
            browser.runtime.onConnect.addListener((port) => port.onMessage.addListener((m) => port.postMessage(m + " from " + location.host)));
            """, sourceURL: "test")
        let worker = try #require(host.backgroundWorld)
        let reply = try Support.await(browser, worker, """
            const port = browser.tabs.connect(\(tab.id), { name: "probe", frameId: \(ad.id) });
            const answer = new Promise((resolve) => port.onMessage.addListener(resolve));
            port.postMessage("ping");
            return await answer;
            """) as? String
        #expect(reply == "ping from ads.test")
        let bad = try Support.eval(worker, "try { browser.tabs.connect('1') } catch (e) { e.message }") as? String
        #expect(bad == "Error in invocation of tabs.connect(integer tabId, optional object connectInfo): No matching signature.")
    }

    @Test func aFaultPlanCanFailAConnection() throws {
        let (browser, host) = try Support.outlineBrowser(pages: ["https://news.test/": "<p>top</p>"])
        host.faults = FaultPlan(rules: [FaultPlan.Rule(method: "runtime.connect", argumentContains: "outline", error: "connection refused by the test")])
        let tab = try browser.openTab(url: "https://news.test/")
        try browser.loop.runUntilIdle()
        #expect(Support.logs(try #require(tab.page)).contains("outline port closed"))
        #expect(!Support.backgroundLogs(browser).contains { $0.hasPrefix("hello from frame") })
        #expect(browser.trace.dump(channels: [.api]).contains(##"port "outline"#1 disconnected: connection refused by the test"##))
    }
}
