import Foundation
import JSKit

/// One simulated browser's JavaScript machinery: a context group (virtual machine), the engine
/// realm holding the DOM, the event loop with its virtual clock, and the pages open in it.
///
/// Everything a session does is deterministic: time comes from ``loop``, randomness from seeds
/// derived from page and world, and no wall clock is read.
public final class WebSession {
    /// Options fixed when the session is made.
    public struct Options: Sendable {
        /// What `Date.now()` returns at virtual time zero (epoch milliseconds).
        /// Default: 2026-01-01T00:00:00Z.
        public var epoch: Double = 1_767_225_600_000
        /// CPU seconds one call into JavaScript (with the microtasks it queues) may take before
        /// the session's JavaScript is stopped (see ``WebSession/watchdog``).
        public var scriptTimeLimit: Double = 10
        /// Seed for `Math.random` in every world (mixed with page and world).
        public var seed: UInt32 = 0x0AD5_EED5

        /// Default options.
        public init() {}
    }

    /// The warm part: the context group with domino and the layers, and its watchdog. Made for
    /// this session, or taken from an ``EnginePool`` (give it back with ``EnginePool/give(_:passed:)``).
    public let engine: SessionEngine
    /// The virtual machine.
    public let group: JSContextGroup
    /// Stops the session's JavaScript past the per-call limit or a deadline. Once it has, the
    /// session is finished: every later call into JavaScript fails, and the loop stops with
    /// ``LoopError/stopped(reason:location:during:)`` after the task that was running.
    public let watchdog: ScriptWatchdog
    /// True once the stop of the session's JavaScript is in the trace (a page traces it when a
    /// task it ran was stopped; the scenario runner when a step was).
    public var stopReported = false
    /// The virtual clock and task queue.
    public let loop: EventLoop
    /// The options the session was made with.
    public let options: Options
    package let realm: DOMRealm
    /// Realms made for the page being opened, taken in order by its worlds (see `open`).
    private var preparedRealms: [JSContext] = []
    /// The engine realm's host functions hold this weakly; the engine keeps it alive.
    private var host: SessionHost { engine.host }
    /// Pages open now, by id.
    public private(set) var pages: [Int: Page] = [:]
    private var nextPageID = 1
    /// The session's trace: console output and script errors of every world go here, and the
    /// browser and scenario layers add their own events.
    public private(set) lazy var trace = TraceRecorder { [unowned self] in self.loop.now }
    /// Names a page and world in trace lines; the browser layer replaces it with tab and frame
    /// names. Default: `page<id>/<world>`.
    public var locationName: (Page, String) -> String = { page, world in "page\(page.id)/\(world)" }
    /// Called when a content world is made, before any content script runs in it: the browser
    /// layer gives the world its `browser` object here.
    public var contentWorldCreated: ((World, Page) throws -> Void)?
    /// Decides and answers a page's `fetch(url)`: by default from ``resourceLoader`` (404 when it
    /// has nothing). The browser layer puts its network rules here.
    public var fetchHandler: ((Page, String, String, String) -> FetchOutcome)?
    /// Fetches external page scripts (`<script src>`) and style sheets (`<link rel=stylesheet>`):
    /// URL in, text out (nil: load error).
    public var resourceLoader: ((String) -> String?)?
    /// Called after a page's URL changed without a new document (`history.pushState`,
    /// `replaceState`, a fragment navigation, a traversal between its own entries), with the
    /// new URL and that kind (`pushState`, `replaceState`, `fragment`, `traversal`); the page's
    /// ``Page/url`` is already the new one.
    public var urlChanged: ((Page, String, String) -> Void)?
    /// Loads another document in a page's place when its script asks (`location.href = …`,
    /// `assign`, `replace`, `reload`, a traversal to another document's entry): the page, the
    /// URL and the kind (`push`, `replace`, `reload`, `traverse`). Returns false when nothing
    /// will load it. A bare session has none: the page stays, as its location does.
    public var navigationRequested: ((Page, String, String) -> Bool)?
    /// Fetches `<link rel=stylesheet>` text when set (the browser layer answers by its rules);
    /// ``resourceLoader`` otherwise.
    public var stylesheetLoader: ((String) -> String?)?

    /// Where the harness's own scripts come from: its layers (`adv-runtime:`) and the Debian
    /// packages they are built on (domino, cssom). Their frames are left out of traced stacks and
    /// of the places a stop names: a page's stack in Safari shows the page's frames, not the
    /// engine's, and these URLs depend on where the packages are installed.
    public static var harnessURLPrefixes: [String] { ["adv-runtime:", "file://" + JSPackages.searchRoot + "/"] }

    /// ` | stack: f@url:1:2 < g@url:3:4` for a traced error: the frames of `stack`, innermost
    /// first, without the harness's own (``harnessURLPrefixes``); empty when none is left.
    public func stackSuffix(_ stack: String?) -> String {
        guard let stack else { return "" }
        let prefixes = Self.harnessURLPrefixes
        let all = stack.split(separator: "\n")
        let places = all.map { JSError.place(ofFrame: $0) }
        let isHarness = places.map { place in prefixes.contains { place.hasPrefix($0) } }
        // A builtin the harness called (Reflect.set inside the membrane between a world's
        // setter and the engine's) is the harness's too; one a page called is the page's.
        let frames = all.indices.filter { index in
            if isHarness[index] { return false }
            if places[index] == "[native code]", index + 1 < all.count, isHarness[index + 1] { return false }
            return true
        }.map { all[$0] }
        return frames.isEmpty ? "" : " | stack: " + frames.joined(separator: " < ")
    }

    /// Makes a session: a new context group with domino loaded.
    /// - Throws: ``MissingPackageError`` when node-domino or node-cssom is missing,
    ///   ``JSError`` when the runtime's own scripts fail to load.
    ///
    /// With `engine` (a warm one from ``EnginePool/take()``), the session reuses its context group:
    /// its worlds are new realms, its clock, loop and trace are new, and the engine realm starts
    /// as it was when it loaded.
    public init(options: Options = Options(), engine: SessionEngine? = nil) throws {
        self.options = options
        let engine = try engine ?? SessionEngine()
        try engine.begin(callLimit: options.scriptTimeLimit)
        self.engine = engine
        group = engine.group
        watchdog = engine.watchdog
        realm = engine.realm
        loop = EventLoop()
        loop.stopCheck = { [watchdog] in watchdog.checkDeadline() }
        engine.host.session = self
        try installScriptEvaluation()
        loop.errorHandler = { [weak self] owner, report in
            guard let owner, let page = self?.pages[owner] else { return }
            page.report(report, world: page.worldName(forScriptURL: report.error.sourceURL))
        }
    }

    // MARK: - Promises

    /// Runs the event loop until `value` (a promise, thenable or plain value) settles.
    /// - Returns: the fulfilment value.
    /// - Throws: ``JSError`` with the rejection reason, or ``LoopError/conditionNotMet(what:limit:)``
    ///   when the promise is still pending once the loop is idle or past `limit`.
    @discardableResult
    public func settle(_ value: JSValue, limit: VirtualTime = .seconds(60)) throws -> JSValue {
        let observer = try PromiseObserver(value)
        try loop.run(until: { observer.isSettled }, limit: limit, what: "the promise")
        switch observer.outcome {
        case let .fulfilled(result): return result
        case let .rejected(reason): throw JSError(thrown: reason)
        case .pending: throw LoopError.conditionNotMet(what: "the promise", limit: limit)
        }
    }

    // MARK: - Pages

    /// Loads `html` as the document at `url`, running its inline scripts in the page world and
    /// `contentScripts` at their `run_at` points, up to and including `DOMContentLoaded`. The
    /// `load` event and `document_idle` scripts follow as a task at the same virtual instant: run
    /// the loop (for example ``EventLoop/runUntilIdle(limit:)``) to reach them.
    ///
    /// The readyState sequence is HTML's: `loading` while parsing (inline scripts see only the
    /// part of the document before them), `interactive` then `DOMContentLoaded`, then
    /// `complete` and `load`.
    /// - Throws: ``JSError`` when the runtime cannot make the page; script errors on the page are
    ///   reported in ``Page/errors`` instead.
    @discardableResult
    ///
    /// `beforeLoad` runs once the page and its page world exist, before anything is parsed;
    /// `afterParse` once `document_end` scripts have run, before the `load` task is queued (the
    /// browser loads frames there, so that they finish before their parent's `load`, as HTML's
    /// "delay the load event" has it).
    ///
    /// With `incremental`, the document reaches the parser in slices of 4 KB (4,096 bytes), as
    /// from the network, and the tasks due at this instant run between slices (a message reply,
    /// a timer an inline script set): HTML's event loop keeps turning while a document loads,
    /// so an extension's content script can act on the first part of a long page before the
    /// rest is parsed. Only a load started outside any task and outside JavaScript may do this
    /// (tasks never run inside one another); if a task closes the page meanwhile, parsing stops
    /// there and the page is returned closed.
    public func open(html: String, url: String, contentScripts: [ContentScript] = [], incremental: Bool = false,
                     historySession: String? = nil,
                     beforeLoad: ((Page) throws -> Void)? = nil,
                     afterParse: ((Page) throws -> Void)? = nil) throws -> Page {
        let id = nextPageID
        nextPageID += 1
        let timeOrigin = options.epoch + loop.now.milliseconds
        loop.frameTimeOrigins[id] = loop.now.milliseconds
        // The page's realms are made one after the other, before anything else of the page:
        // making a realm runs a large stretch of the engine's code, which the second one finds
        // still in the processor's caches (in first_hide_ms's navigations the two took 0.34 ms
        // together against 0.43 ms made apart).
        let extensionIDs = Set(contentScripts.map(\.extensionID))
        // The page world is made when script first needs it (Page.pageWorld): a page that runs
        // no script of its own costs no realm for it.
        let inlineScript = html.range(of: "<script", options: .caseInsensitive) != nil
        preparedRealms = (0..<(extensionIDs.count + (inlineScript ? 1 : 0))).map { _ in JSContext(group: group, globalClassName: "Window") }
        defer { preparedRealms.removeAll() }
        let handle = try realm.createPage(id: id, url: url, timeOrigin: timeOrigin, historySession: historySession)
        let page = Page(id: id, url: url, handle: handle, session: self)
        page.pageWorldMaker = pageWorldMaker(for: id)
        pages[id] = page
        if inlineScript { _ = page.pageWorld }
        try beforeLoad?(page)
        for script in contentScripts where !script.mainWorld { _ = try page.contentWorld(for: script.extensionID) }

        inject(contentScripts, at: .documentStart, into: page)
        let yields = incremental && !loop.isRunningTask && HostCallDepth.current == 0
        var deferred: [DeferredScript] = []
        guard try parse(HTMLSource(html), into: page, yieldingBetweenSlices: yields, deferred: &deferred) else { return page }
        try handle.invoke("setReadyState", [handle.context.string("interactive")])
        // HTML 13.2.7 "the end", step 3: the deferred scripts run once the document is parsed,
        // after readyState is "interactive" and before DOMContentLoaded, in document order.
        for script in deferred {
            run(script, in: page)
            if page.isClosed { return page }
        }
        try handle.invoke("fireDOMContentLoaded")
        inject(contentScripts, at: .documentEnd, into: page)
        try afterParse?(page)
        loop.schedule(owner: id, label: "load event of \(url)") { [weak self, weak page] in
            guard let self, let page, !page.isClosed else { return }
            do {
                try page.handle.invoke("setReadyState", [page.handle.context.string("complete")])
                try page.handle.invoke("fireLoad")
            } catch let error as JSError {
                page.report(JSErrorReport(error: error, during: "load event"), world: "page")
            } catch {}
            self.inject(contentScripts, at: .documentIdle, into: page)
        }
        return page
    }

    /// Closes `page` and opens a new one in its place (a navigation).
    /// - Throws: as ``open(html:url:contentScripts:)``.
    @discardableResult
    public func navigate(from page: Page, html: String, url: String, contentScripts: [ContentScript] = []) throws -> Page {
        page.close()
        return try open(html: html, url: url, contentScripts: contentScripts)
    }

    /// What makes `page`'s page world when Page.pageWorld first asks. It holds the engine realm
    /// and the group, not the session: a page can outlive the session object that opened it
    /// (its realms stay usable), and its page world must still be the page's.
    private func pageWorldMaker(for id: Int) -> (Page) -> World {
        let realm = self.realm, group = self.group, seed = seed(page: id, world: "page")
        return { [weak self] page in
            let context = self?.makeRealm(name: "page \(id)") ?? JSContext(group: group, name: "page \(id)", globalClassName: "Window")
            let world = World(kind: .page, context: context)
            world.page = page
            // The page's before its realm is set up, so that code the setup runs finds it made.
            page.madePageWorld = world
            guard !page.isClosed else { return world }
            do {
                try realm.initWorld(context, page: page.handle, pageID: id, worldID: world.name, isPageWorld: true, seed: seed)
                try Self.reportUnhandledRejections(in: world, of: page, realm: realm)
            } catch {
                // The session was stopped: the world is the page's anyway, as a failed setup of
                // an eager one left it.
                let failure = error as? JSError ?? JSError(message: String(describing: error))
                page.report(JSErrorReport(error: failure, during: "making the page world"), world: world.name)
            }
            return world
        }
    }

    func makeWorld(kind: World.Kind, page: Page) throws -> World {
        let context = makeRealm(name: "\(kind) \(page.id)")
        let world = World(kind: kind, context: context)
        world.page = page
        try realm.initWorld(context, page: page.handle, pageID: page.id, worldID: world.name, isPageWorld: false, seed: seed(page: page.id, world: world.name))
        try reportUnhandledRejections(in: world, of: page)
        try contentWorldCreated?(world, page)
        // Extension DOM changes are traced only where a content world exists (JS/trace/dom-trace.js).
        try page.document.set("_advExtensionWorlds", context.boolean(true))
        return world
    }

    /// Reports a promise of `world` rejected with no handler as its page's error, as Safari's
    /// console does ("Unhandled Promise Rejection: ", WebCore's RejectedPromiseTracker).
    private func reportUnhandledRejections(in world: World, of page: Page) throws {
        try Self.reportUnhandledRejections(in: world, of: page, realm: realm)
    }

    private static func reportUnhandledRejections(in world: World, of page: Page, realm: DOMRealm) throws {
        let name = world.name
        try world.context.onUnhandledRejection(madeIn: realm.context) { [weak page] reason in
            guard let page else { return }
            var error = JSError(thrown: reason)
            // Safari's line: an error as `Name: message`, any other value as itself.
            let bare = !reason.isObject || error.name == "Uncaught"
            error.message = (bare ? "" : error.name + ": ") + error.message
            error.name = "Unhandled Promise Rejection"
            page.report(JSErrorReport(error: error, during: "a promise job"), world: name)
        }
    }

    /// A realm for a world: its global is made from the "Window" class so that its prototype can
    /// be chained to the page (DOMRealm.initWorld) and `String(window)` reads `[object Window]`.
    func makeRealm(name: String) -> JSContext {
        if !preparedRealms.isEmpty {
            let context = preparedRealms.removeFirst()
            context.name = name
            return context
        }
        return JSContext(group: group, name: name, globalClassName: "Window")
    }

    /// Closes every open page, as when the browser quits: no events, timers and frames
    /// cancelled.
    func closeAllPages() {
        for id in pages.keys.sorted() { pages[id]?.close() }
    }

    func pageClosed(_ page: Page) {
        loop.cancelAll(owner: page.id)
        pages[page.id] = nil
        _ = try? page.handle.invoke("close")
    }

    private func inject(_ scripts: [ContentScript], at runAt: ContentScript.RunAt, into page: Page) {
        for script in scripts where script.runAt == runAt {
            guard let world = script.mainWorld ? page.pageWorld : try? page.contentWorld(for: script.extensionID) else { continue }
            world.run(page.classicSource(script.source, in: world, referrer: script.url), sourceURL: script.url,
                      during: "content script \(script.url) (\(runAt.rawValue))")
        }
    }

    /// Feeds `source` to the page's parser; false when a task run between slices closed the page.
    private func parse(_ source: HTMLSource, into page: Page, yieldingBetweenSlices yields: Bool, deferred: inout [DeferredScript]) throws -> Bool {
        var scriptIndex = 0
        for chunk in source.chunks {
            var text = chunk.text
            if yields {
                let slices = HTMLSource.slices(of: chunk.text)
                for slice in slices.dropLast() {
                    _ = try page.handle.invoke("write", [page.handle.context.string(slice)])
                    try loop.run(until: loop.now)
                    if page.isClosed { return false }
                }
                text = slices.last ?? ""
            }
            let written = try page.handle.invoke("write", [page.handle.context.string(text)])
            try runScripts(written, endOffset: chunk.scriptEnd, source: source, page: page, counter: &scriptIndex, deferred: &deferred)
            if page.isClosed { return false }
        }
        let rest = try page.handle.invoke("end")
        try runScripts(rest, endOffset: nil, source: source, page: page, counter: &scriptIndex, deferred: &deferred)
        return !page.isClosed
    }

    /// Runs or schedules the scripts the parser just finished, as HTML 4.12.1.1 "prepare the script
    /// element" does for parser-inserted ones: an inline classic script runs now (`defer` and
    /// `async` do not apply to it); an external classic one is fetched now and runs now (it
    /// blocks the parser), with `async` in a task of its own, with `defer` once the document is
    /// parsed (`deferred`); a module script (JS/scripting/modules.js) with `async` in a task,
    /// otherwise with the deferred scripts; a classic script with `nomodule` never runs, as in
    /// every browser that runs modules. Other types are data blocks.
    private func runScripts(_ scripts: JSValue, endOffset: Int?, source: HTMLSource, page: Page, counter: inout Int,
                            deferred: inout [DeferredScript]) throws {
        let count = Int(try scripts["length"].toNumber())
        let context = page.handle.context
        for index in 0..<count {
            counter += 1
            let element = scripts[index]
            let attribute = { (name: String) in try element.invoke("getAttribute", [context.string(name)]).stringValue }
            let kind = try page.callWeb("modules", "scriptType", [element]).stringValue
            let text = element["text"].stringValue ?? ""
            var line = 1
            if let endOffset { line = source.line(at: max(0, endOffset - text.utf8.count)) }
            let inline = try attribute("src") == nil
            if inline, kind == "module" || kind == "classic", page.inlineScriptRefusal != nil {
                page.refuseInlineScript()
                continue
            }
            if kind == "module" {
                let during = inline ? "inline script \(counter) of \(page.url)" : nil
                let script = try page.callWeb("modules", "prepare", [element, true, line, during])
                if script.isObject { deferred.append(.module(script)) }
                continue
            }
            guard kind == "classic", try attribute("nomodule") == nil else { continue }
            if let src = try attribute("src") {
                guard !src.isEmpty else {
                    // HTML step 31.1: an empty src gets an `error` event in a later task and never runs.
                    loop.schedule(owner: page.id, label: "script error") { [weak page] in
                        guard let page, !page.isClosed else { return }
                        Self.fire("error", at: element, in: page)
                    }
                    continue
                }
                let resolved = URL(string: src, relativeTo: URL(string: page.url))?.absoluteString ?? src
                let script = DeferredScript.classic(element: element, text: resourceLoader?(resolved), url: resolved)
                if try attribute("async") != nil {
                    loop.schedule(owner: page.id, label: "script \(resolved)") { [weak self, weak page] in
                        guard let self, let page, !page.isClosed else { return }
                        self.run(script, in: page)
                    }
                } else if try attribute("defer") != nil {
                    deferred.append(script)
                } else {
                    run(script, in: page)
                }
                continue
            }
            page.runScript(element, text, sourceURL: page.url, startingLine: line, during: "inline script \(counter) of \(page.url)")
        }
    }

    /// A parsed script that waits for its turn: an external classic script (its text, nil when
    /// it could not be fetched) or a module script the module loader prepared.
    enum DeferredScript {
        case classic(element: JSValue, text: String?, url: String)
        case module(JSValue)
    }

    /// HTML "execute the script element" for a parsed script whose turn has come: an external
    /// classic script runs and gets `load`, or `error` when it could not be fetched.
    private func run(_ script: DeferredScript, in page: Page) {
        switch script {
        case let .classic(element, text, url):
            guard let text else { return Self.fire("error", at: element, in: page) }
            page.runScript(element, text, sourceURL: url, referrer: url, during: "script \(url)")
            if !page.isClosed { Self.fire("load", at: element, in: page) }
        case let .module(prepared):
            do { try page.callWeb("modules", "executeScript", [prepared]) } catch let error as JSError {
                page.report(JSErrorReport(error: error, during: "module script"), world: "page")
            } catch {}
        }
    }

    private static func fire(_ type: String, at element: JSValue, in page: Page) {
        page.fire(type, at: element)
    }

    /// Gives the module loader (JS/scripting/modules.js) its way into a world: a module's code is
    /// evaluated as a script of the realm of the global it names, with the module's URL and
    /// first line (JavaScriptCore's `eval` keeps no URL for the code it runs, so errors and stacks
    /// would not say where they are).
    private func installScriptEvaluation() throws {
        let hooks = try realm.engine.property("hooks")
        try hooks.set("evaluate", realm.context.function("evaluate", length: 4) { call in
            guard let world = call.argument(0).realm else { throw JSError(name: "TypeError", message: "evaluate needs a global object") }
            return try world.evaluate(try call.argument(1).toString(), sourceURL: try call.argument(2).toString(),
                                      startingLine: Int(try call.argument(3).toNumber()))
        })
    }

    private func seed(page: Int, world: String) -> UInt32 {
        // FNV-1a over "seed:page:world": stable across runs and machines.
        var hash: UInt32 = 2_166_136_261
        for byte in "\(options.seed):\(page):\(world)".utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        return hash
    }
}

extension Page {
    /// The world a script URL belongs to: the page world unless it is one of the content worlds'
    /// extension URLs.
    func worldName(forScriptURL url: String?) -> String {
        guard let url else { return "page" }
        for world in contentWorlds.values {
            if case let .content(extensionID) = world.kind, url.contains(extensionID) { return world.name }
        }
        return "page"
    }
}

/// The engine realm's host functions, forwarding to the session (held weakly).
final class SessionHost: DOMRealmHost {
    weak var session: WebSession?

    func epochMilliseconds() -> Double {
        guard let session else { return 0 }
        return session.options.epoch + session.loop.now.milliseconds
    }

    func setTimer(page: Int, callback: JSValue, timeout: Int, repeating: Bool, arguments: [JSValue], source: String) -> Int {
        guard let session, session.pages[page] != nil else { return 0 }
        return session.loop.addTimer(owner: page, callback: callback, arguments: arguments, timeout: timeout, repeating: repeating, source: source)
    }

    func clearTimer(page: Int, id: Int) { session?.loop.clearTimer(owner: page, id: id) }

    func requestFrame(page: Int, callback: JSValue, source: String) -> Int {
        guard let session, session.pages[page] != nil else { return 0 }
        return session.loop.requestFrame(owner: page, callback: callback, source: source)
    }

    func cancelFrame(page: Int, id: Int) { session?.loop.cancelFrame(owner: page, id: id) }

    func requestRenderingStep(page: Int, callback: JSValue, source: String) {
        guard let session, session.pages[page] != nil else { return }
        session.loop.requestRenderingStep(owner: page, callback: callback, source: source)
    }

    func console(page: Int, world: String, level: String, text: String) {
        session?.pages[page]?.log(world: world, level: level, text: text)
    }

    func fetch(page: Int, url: String, method: String, headers: String) -> FetchOutcome {
        guard let session, let target = session.pages[page] else { return .response(status: 404, body: "") }
        if let handler = session.fetchHandler { return handler(target, url, method, headers) }
        if let body = session.resourceLoader?(url) { return .response(status: 200, body: body) }
        return .response(status: 404, body: "")
    }

    func queueTask(page: Int, callback: JSValue, label: String) {
        guard let session, session.pages[page] != nil else { return }
        session.loop.schedule(owner: page, label: label) { [weak session] in
            do { try callback.call() } catch let error as JSError {
                session?.pages[page]?.report(JSErrorReport(error: error, during: "a " + label), world: "page")
            } catch {}
        }
    }
    func loadResource(url: String) -> String? {
        guard let session else { return nil }
        if let loader = session.stylesheetLoader { return loader(url) }
        return session.resourceLoader?(url)
    }

    func traceDOM(page: Int, extensionID: String, text: String, channel: TraceChannel) {
        guard let session, let target = session.pages[page] else { return }
        session.trace.record(channel, at: session.locationName(target, "content:" + extensionID), text)
    }

    func urlChanged(page: Int, url: String, kind: String) {
        guard let session, let target = session.pages[page] else { return }
        target.url = url
        session.urlChanged?(target, url, kind)
    }

    func navigate(page: Int, url: String, kind: String) -> Bool {
        guard let session, let target = session.pages[page], let handler = session.navigationRequested else { return false }
        return handler(target, url, kind)
    }

    func checkBudget(from context: JSContext, what: String?) {
        session?.watchdog.checkDeadline(from: context, what: what)
    }

    func makePageWorld(page: Int) {
        _ = session?.pages[page]?.pageWorld
    }

    func reportError(page: Int, error: JSError, during: String) {
        guard let target = session?.pages[page] else { return }
        target.report(JSErrorReport(error: error, during: during), world: target.worldName(forScriptURL: error.sourceURL))
    }
}
