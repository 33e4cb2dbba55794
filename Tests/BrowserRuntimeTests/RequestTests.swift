import BrowserRuntime
import TestSupport
import Testing
import WebRuntime

@Suite struct RequestTests {
    func open(_ html: String, profile: Browser.Profile = .safari) throws -> (Browser, ExtensionHost, Tab) {
        let pages = [
            "https://news.test/": html,
            "https://news.test/data.json": #"{"n": 3}"#,
            "https://news.test/late.js": "console.log('late.js ran')",
            "https://tracker.test/t.js": "console.log('tracker ran')",
        ]
        let (browser, host) = try Support.outlineBrowser(pages: pages, profile: profile)
        let tab = try browser.openTab(url: "https://news.test/")
        try browser.loop.runUntilIdle()
        return (browser, host, tab)
    }

    func network(_ browser: Browser) -> [String] {
        browser.trace.dump(channels: [.network]).split(separator: "\n").map { String($0.drop { $0 == " " }) }
    }

    @Test(arguments: Browser.Profile.allCases)
    func xmlHttpRequestIsDecidedAsXMLHttpRequest(profile: Browser.Profile) throws {
        let (browser, _, tab) = try open("""
            <script>
              const ok = new XMLHttpRequest();
              ok.onreadystatechange = () => console.log("state", ok.readyState);
              ok.onload = () => console.log("ok", ok.status, JSON.parse(ok.responseText).n);
              ok.open("GET", "/data.json");
              ok.send();
              const blocked = new XMLHttpRequest();
              blocked.addEventListener("error", () => console.log("blocked error", blocked.status, blocked.readyState));
              blocked.addEventListener("loadend", () => console.log("blocked loadend"));
              blocked.open("POST", "https://tracker.test/collect");
              blocked.send("x");
              const json = new XMLHttpRequest();
              json.responseType = "json";
              json.onload = () => console.log("json", json.response.n);
              json.open("GET", "/data.json");
              json.send();
            </script>
            """, profile: profile)
        let logs = Support.logs(try #require(tab.page))
        #expect(logs.filter { $0.hasPrefix("state") } == ["state 1", "state 2", "state 3", "state 4"])
        #expect(logs.contains("ok 200 3"))
        #expect(logs.contains("blocked error 0 4"))
        #expect(logs.contains("blocked loadend"))
        #expect(logs.contains("json 3"))
        #expect(network(browser).contains("0ms tab1 network POST https://tracker.test/collect xmlhttprequest blocked by frames#1"))
        #expect(network(browser).contains("0ms tab1 network GET https://news.test/data.json xmlhttprequest allowed"))
    }

    @Test func beaconsAndWebSocketsHaveTheirOwnTypes() throws {
        let (browser, _, tab) = try open("""
            <script>
              console.log("beacon queued", navigator.sendBeacon("https://tracker.test/b", "x"), navigator.userAgent.includes("Safari"));
              const blocked = new WebSocket("wss://tracker.test/live");
              blocked.onerror = () => console.log("ws error", blocked.readyState);
              blocked.onclose = (e) => console.log("ws close", e.code, e.wasClean);
              const open = new WebSocket("wss://chat.test/room");
              open.onopen = () => { console.log("ws open", open.readyState); open.close(); };
              open.onclose = (e) => console.log("ws closed", e.code);
              try { new WebSocket("ftp://x.test/"); } catch (e) { console.log(e.name); }
            </script>
            """)
        let logs = Support.logs(try #require(tab.page))
        #expect(logs.first == "beacon queued true true")
        #expect(logs.contains("ws error 3"))
        #expect(logs.contains("ws close 1006 false"))
        #expect(logs.contains("ws open 1"))
        #expect(logs.contains("ws closed 1000"))
        #expect(logs.contains("SyntaxError"))
        let lines = network(browser)
        #expect(lines.contains("0ms tab1 network POST https://tracker.test/b ping blocked by frames#1"))
        #expect(lines.contains("0ms tab1 network GET wss://tracker.test/live websocket blocked by frames#1"))
        #expect(lines.contains("0ms tab1 network GET wss://chat.test/room websocket allowed"))
    }

    @Test func elementsChangedOrInsertedAfterParsingMakeRequests() throws {
        let (browser, _, tab) = try open("""
            <img id="ad" src="https://cdn.test/first.png">
            <script>
              window.addEventListener("load", () => {
                const img = document.getElementById("ad");
                img.onerror = () => console.log("img error", img.src);
                img.src = "https://tracker.test/second.png";
                const pixel = new Image(1, 1);
                pixel.src = "https://tracker.test/pixel.gif";
                document.createElement("img").src = "https://tracker.test/pixel2.gif";
                const script = document.createElement("script");
                script.src = "/late.js";
                script.onload = () => console.log("late.js load");
                document.head.appendChild(script);
                const tracker = document.createElement("script");
                tracker.src = "https://tracker.test/t.js";
                tracker.onerror = () => console.log("tracker script error");
                document.body.appendChild(tracker);
                const inline = document.createElement("script");
                inline.textContent = "var injected = 'yes'; console.log('inline ran')";
                document.body.appendChild(inline);
                console.log("after append", window.injected);
                document.body.insertAdjacentHTML("beforeend", "<div style='background:url(https://tracker.test/bg.png)'></div>");
              });
            </script>
            """)
        let logs = Support.logs(try #require(tab.page))
        #expect(logs.contains("inline ran"))
        #expect(logs.contains("after append yes"))
        #expect(logs.contains("img error https://tracker.test/second.png"))
        #expect(logs.contains("late.js ran"))
        #expect(logs.firstIndex(of: "late.js ran").map { logs.firstIndex(of: "late.js load") ?? 0 > $0 } == true)
        #expect(logs.contains("tracker script error"))
        #expect(!logs.contains("tracker ran"))
        let lines = network(browser)
        #expect(lines.contains("0ms tab1 network GET https://tracker.test/second.png image blocked by frames#1"))
        #expect(lines.contains("0ms tab1 network GET https://tracker.test/pixel.gif image blocked by frames#1"))
        #expect(lines.contains("0ms tab1 network GET https://tracker.test/pixel2.gif image blocked by frames#1"))
        #expect(lines.contains("0ms tab1 network GET https://news.test/late.js script allowed"))
        #expect(lines.contains("0ms tab1 network GET https://tracker.test/bg.png image blocked by frames#1"))
        // Each element request is made once (parsing made the first).
        #expect(lines.filter { $0.contains("first.png") }.count == 1)
    }

    @Test func extensionResourcesFollowWebAccessibleResources() throws {
        let (browser, host, tab) = try open("<p>page</p>")
        let page = try #require(tab.page)
        let result = try Support.await(browser, page.pageWorld, """
            const base = "safari-web-extension://\(host.id)/";
            const svg = await fetch(base + "badge.svg").then((r) => r.text());
            let worker;
            try { await fetch(base + "worker.js"); worker = "loaded"; } catch (e) { worker = e.message; }
            return [svg.startsWith("<svg"), worker].join("|");
            """) as? String
        #expect(result == "true|Load failed")
    }

    @Test func misuseThrowsTheDocumentedErrors() throws {
        let (browser, _, tab) = try open("<p>page</p>")
        defer { withExtendedLifetime(browser) {} }
        let world = try #require(tab.page).pageWorld
        let result = try Support.eval(world, """
            const errors = [];
            const xhr = new XMLHttpRequest();
            try { xhr.setRequestHeader("a", "b"); } catch (e) { errors.push(e.name); }
            try { xhr.send(); } catch (e) { errors.push(e.name); }
            xhr.open("GET", "/data.json");
            xhr.send();
            try { xhr.send(); } catch (e) { errors.push(e.name); }
            try { navigator.sendBeacon("https://exa mple.test/"); } catch (e) { errors.push(e.name + ": " + e.message); }
            try { XMLHttpRequest(); } catch (e) { errors.push(e.name); }
            const sync = new XMLHttpRequest();
            sync.open("GET", "https://tracker.test/sync", false);
            try { sync.send(); } catch (e) { errors.push(e.name + " " + sync.readyState + " " + sync.status); }
            errors.join(" | ");
            """) as? String
        #expect(result == "InvalidStateError | InvalidStateError | InvalidStateError | TypeError: This URL is invalid | TypeError | NetworkError 4 0")
    }

    /// A page's XMLHttpRequest, WebSocket and Image are its own (their requests belong to its
    /// document) and, as WebIDL interface objects, not enumerable; a page may replace them.
    @Test func eachPageHasItsOwnRequestClasses() throws {
        let (browser, _, tab) = try open("<p>page</p>")
        defer { withExtendedLifetime(browser) {} }
        let first = try #require(tab.page).pageWorld
        let shape = try Support.eval(first, """
            globalThis.firstXHR = XMLHttpRequest;
            const keys = []; for (const key in window) keys.push(key);
            [["XMLHttpRequest", "WebSocket", "Image"].map((n) => typeof window[n] + ":" + keys.includes(n)).join(","),
             XMLHttpRequest.prototype.constructor === XMLHttpRequest, new XMLHttpRequest() instanceof XMLHttpRequest,
             new Image(2, 3).outerHTML].join(" | ");
            """) as? String
        #expect(shape == #"function:false,function:false,function:false | true | true | <img width="2" height="3">"#)
        let replaced = try Support.eval(first, """
            window.XMLHttpRequest = function Fake() {};
            XMLHttpRequest.name;
            """) as? String
        #expect(replaced == "Fake")
        try browser.navigate(tab, to: "https://news.test/")
        let second = try #require(tab.page).pageWorld
        let fresh = try Support.eval(second, "XMLHttpRequest.name + ' ' + (new XMLHttpRequest()).readyState") as? String
        #expect(fresh == "XMLHttpRequest 0")
    }

    @Test func aLayerSettingItsOwnMutationHandlerJoinsTheFanOut() throws {
        // domino has one mutation handler per document; the engine keeps it and fans out, so a
        // layer (the web-platform MutationObserver) setting its own still leaves requests working.
        let (browser, _, tab) = try open("<p>page</p>")
        let page = try #require(tab.page)
        let seen = try Support.evalInEngine(page, """
            let records = 0;
            document._setMutationHandler(() => { records++; });
            const img = document.createElement("img");
            img.src = "https://tracker.test/after-handler.png";
            document.body.appendChild(img);
            records;
            """) as? Double
        #expect(seen == 1)
        #expect(network(browser).contains("0ms tab1 network GET https://tracker.test/after-handler.png image blocked by frames#1"))
    }
}
