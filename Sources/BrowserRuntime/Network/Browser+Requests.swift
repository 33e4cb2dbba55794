import BlockerCore
import Foundation
import JSKit
import WebRuntime

extension Browser {
    /// What a request made from script gets: blocked, or a status, a body, the URL it was
    /// answered from and the response headers.
    struct RequestOutcome {
        var blocked: Bool
        var status: Int
        var body: String
        var url: String
        var headers: [(name: String, value: String)]
        var redirected: Bool
    }

    /// A request carried through every rule: redirects and upgrades followed (each hop decided
    /// again), up to ``redirectLimit`` hops.
    struct Carried {
        var blocked: Bool
        /// The URL it ends at.
        var url: String
        var redirected: Bool
        /// The last hop's decision (its headers).
        var decision: NetworkDecision
    }

    /// Redirects followed before a request fails (Chromium's net::URLRequest kMaxRedirects;
    /// WebKit's NetworkLoad uses the same 20).
    static let redirectLimit = 20

    /// Decides `request` and the requests its redirects make, tracing each hop.
    func carry(_ request: NetworkRequest, record: Bool = true) -> Carried {
        var current = request
        var hops = 0
        while true {
            let decision = decide(current, record: record)
            if decision.blocked { return Carried(blocked: true, url: current.url, redirected: hops > 0, decision: decision) }
            guard let target = decision.redirectURL, target != current.url else {
                return Carried(blocked: false, url: current.url, redirected: hops > 0, decision: decision)
            }
            hops += 1
            if hops > Self.redirectLimit {
                if record {
                    trace.record(.network, at: current.tabID > 0 ? "tab\(current.tabID)" : "browser",
                                 "\(current.method) \(target) \(current.type.rawValue) failed: more than \(Self.redirectLimit) redirects")
                }
                return Carried(blocked: true, url: target, redirected: true, decision: decision)
            }
            current.url = target
            // An extension's own resource is served from its bundle; rules never see it.
            if ExtensionBundle.schemeLength(of: target) != nil { return Carried(blocked: false, url: target, redirected: true, decision: decision) }
        }
    }

    /// The body of `url` as the browser would receive it: an extension resource (when `documentURL`
    /// may load it) or the fixture's page source.
    func served(_ url: String, for documentURL: String) -> String? {
        ExtensionBundle.schemeLength(of: url) != nil ? extensionResource(url, for: documentURL) : pageSource(url)
    }

    /// Decides and answers a request `page` makes (fetch, XMLHttpRequest, beacon, WebSocket):
    /// extension resources come from the bundle, everything else is decided by the rules and
    /// answered from ``pageSource`` (404 when it has nothing) with ``responseHeaders`` changed by
    /// the header rules.
    func request(from page: Page, url: String, type: DNRResourceType, method: String,
                 headers: [(name: String, value: String)] = []) -> RequestOutcome {
        if ExtensionBundle.schemeLength(of: url) != nil {
            let body = extensionResource(url, for: page.url)
            return RequestOutcome(blocked: body == nil, status: body == nil ? 0 : 200, body: body ?? "", url: url,
                                  headers: body == nil ? [] : responseHeaders(url), redirected: false)
        }
        let frame = pageFrames[page.id]
        let request = NetworkRequest(url: url, type: type, method: method, tabID: pageTabs[page.id] ?? -1,
                                     documentURL: frame?.effectiveURL ?? page.url, frameChain: frame?.chain ?? [], frameID: frame?.id ?? 0,
                                     headers: headers)
        let carried = carry(request)
        if carried.blocked { return RequestOutcome(blocked: true, status: 0, body: "", url: carried.url, headers: [], redirected: carried.redirected) }
        guard let body = served(carried.url, for: frame?.effectiveURL ?? page.url) else {
            return RequestOutcome(blocked: false, status: 404, body: "", url: carried.url,
                                  headers: carried.decision.responseHeaders([("Content-Type", "text/plain")]), redirected: carried.redirected)
        }
        return RequestOutcome(blocked: false, status: 200, body: body, url: carried.url,
                              headers: carried.decision.responseHeaders(responseHeaders(carried.url)), redirected: carried.redirected)
    }

    /// The text of a resource a document loads (a script): nil when a rule blocks it or nothing
    /// is there.
    func load(_ url: String, type: DNRResourceType, frame: Frame?, documentURL: String?) -> String? {
        if ExtensionBundle.schemeLength(of: url) != nil { return extensionResource(url, for: documentURL ?? "") }
        let request = NetworkRequest(url: url, type: type, tabID: frame?.tab.id ?? -1, documentURL: documentURL,
                                     frameChain: frame?.chain ?? [], frameID: frame?.id ?? 0)
        let carried = carry(request)
        return carried.blocked ? nil : served(carried.url, for: documentURL ?? "")
    }

    /// The headers a fixture resource is served with: `Content-Type` from its file name, then
    /// what ``responseHeaderSource`` adds for it (a scenario's `responseHeaders`).
    func responseHeaders(_ url: String) -> [(name: String, value: String)] {
        var path = url
        if let cut = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<cut]) }
        let name = path.split(separator: "/").last.map(String.init) ?? ""
        let ext = name.contains(".") ? name.split(separator: ".").last.map { $0.lowercased() } ?? "" : ""
        let type: String = switch ext {
        case "js", "mjs": "text/javascript"
        case "css": "text/css"
        case "json": "application/json"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "gif": "image/gif"
        case "jpg", "jpeg": "image/jpeg"
        case "txt": "text/plain"
        default: "text/html"
        }
        var headers: [(name: String, value: String)] = [("Content-Type", type)]
        for header in responseHeaderSource(url) {
            headers.removeAll { $0.name.lowercased() == header.name.lowercased() }
            headers.append(header)
        }
        return headers
    }

    /// A file of an installed extension: its own pages load any of its files; a web page only
    /// those the manifest lists in `web_accessible_resources` for the page's URL (Chromium's
    /// extensions/browser/extension_protocols.cc refuses the others; WebKit does the same in
    /// WebExtensionContext::isURLForThisExtension checks).
    func extensionResource(_ url: String, for documentURL: String) -> String? {
        guard let schemeLength = ExtensionBundle.schemeLength(of: url) else { return nil }
        let rest = url.dropFirst(schemeLength)
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let id = String(rest[..<slash])
        var path = String(rest[rest.index(after: slash)...])
        if let cut = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<cut]) }
        guard let host = extensionHost(id), url.hasPrefix(host.bundle.urlScheme) else { return nil }
        let ownPage = documentURL.hasPrefix(host.bundle.url(""))
        if !ownPage {
            let accessible = host.bundle.manifest.webAccessibleResources.contains { entry in
                entry.matches.contains { $0.matches(documentURL) } && entry.resources.contains { MatchPattern.glob($0.hasPrefix("/") ? String($0.dropFirst()) : $0, matches: path) }
            }
            guard accessible else { return nil }
        }
        return try? host.bundle.text(path)
    }

    // MARK: - Requests after parsing (JS/network/requests.js)

    /// Gives the engine's browser layers their hooks: requests made by script and by elements
    /// inserted or changed after parsing, and frames inserted, changed or removed. The hooks hold
    /// the browser weakly (see Browser.init); without it a request is blocked and frames are
    /// left alone.
    func installNetworkHooks() throws {
        let realm = session.realm.context
        let hooks = try session.realm.engine.property("hooks")
        try hooks.set("request", realm.function("request", length: 6) { [weak self] call in
            let pageID = Int(try call.argument(0).toNumber())
            let element = call.argument(1)
            let url = try call.argument(2).toString()
            let typeName = try call.argument(3).toString()
            let method = call.argument(4).stringValue ?? "GET"
            let headers = Self.headerPairs(call.argument(5).stringValue ?? "")
            guard let self, let page = self.session.pages[pageID], let type = DNRResourceType(rawValue: typeName) else {
                return try call.context.value(["blocked": true])
            }
            let outcome = self.request(from: page, url: url, type: type, method: method, headers: headers)
            if element.isObject { self.settleElementLoad(element, page: page, url: url, type: type, outcome: outcome) }
            return try call.context.value(["blocked": outcome.blocked, "status": outcome.status, "body": outcome.body, "url": outcome.url,
                                           "headers": Self.headerText(outcome.headers), "redirected": outcome.redirected])
        })
        try hooks.set("frame", realm.function("frame", length: 2) { [weak self] call in
            let pageID = Int(try call.argument(0).toNumber())
            guard let self, let parent = self.pageFrames[pageID] else { return nil }
            let element = call.argument(1)
            let target = try self.framesLayer.invoke("target", [element])
            let url = target["url"].stringValue ?? "about:blank"
            let srcdoc = target["srcdoc"].stringValue
            if srcdoc == nil, url != "about:blank" {
                // A navigation: the document comes in a later task (the element has none meanwhile).
                if let old = self.frame(holding: element, in: parent.tab) { self.closeFrame(old) }
                _ = try self.framesLayer.invoke("detach", [element])
                self.loop.schedule(owner: pageID, label: "frame load \(url)") { [weak self] in
                    try? self?.loadFrame(element: element, url: url, srcdoc: nil, parent: parent)
                }
            } else {
                // about:blank and srcdoc documents exist as soon as the element is inserted.
                try self.loadFrame(element: element, url: url, srcdoc: srcdoc, parent: parent)
            }
            return nil
        })
        try hooks.set("frameRemoved", realm.function("frameRemoved", length: 2) { [weak self] call in
            let pageID = Int(try call.argument(0).toNumber())
            if let self, let parent = self.pageFrames[pageID], let frame = self.frame(holding: call.argument(1), in: parent.tab) {
                self.trace.record(.navigation, at: "tab\(parent.tab.id)/frame\(frame.id)", "removed from frame \(parent.id)")
                self.closeFrame(frame)
            }
            return nil
        })
    }

    /// Fires `load` or `error` at an element whose request was decided, in a later task; a
    /// script that loads runs first, in the page world (HTML "execute the script element").
    func settleElementLoad(_ element: JSValue, page: Page, url: String, type: DNRResourceType, outcome: RequestOutcome) {
        loop.schedule(owner: page.id, label: "\(type.rawValue) load \(url)") { [weak page] in
            guard let page, !page.isClosed else { return }
            var failed = outcome.blocked
            if type == .script, !failed {
                if outcome.status == 200 {
                    page.runScript(element, outcome.body, sourceURL: url, referrer: url, during: "script \(url)")
                } else {
                    failed = true
                }
            }
            page.fire(failed ? "error" : "load", at: element)
        }
    }
}

extension Browser {
    /// `name: value` lines, the form header lists cross between the page layers and the browser.
    static func headerPairs(_ text: String) -> [(name: String, value: String)] {
        text.split(separator: "\n").compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), String(line[colon...].dropFirst()).trimmingCharacters(in: .whitespaces))
        }
    }

    static func headerText(_ headers: [(name: String, value: String)]) -> String {
        headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }
}
