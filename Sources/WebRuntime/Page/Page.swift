import JSKit

/// A loaded document with its page world and the content worlds of extensions injected into it.
///
/// A page lives until it is navigated away from or closed; then its timers and frames are
/// cancelled and its worlds released. Its scripts could patch only their own worlds' wrappers
/// (JS/boot/membrane.js), so nothing of its JavaScript state reaches the next page.
public final class Page {
    /// Unique within the session, in order of creation.
    public let id: Int
    /// The document's URL (history.pushState and fragment navigations change it).
    public internal(set) var url: String
    /// The page world (the site's own scripts), made the first time anything needs it: a page
    /// that runs no script of its own (no <script>, no event handler attribute, nothing the
    /// harness evaluates there) never has one, as WebKit makes a frame's window proxy for the
    /// normal world only when script first needs it (WebCore's ScriptController,
    /// WindowProxy::jsWindowProxy). A closed page's is a bare realm, with no document.
    public var pageWorld: World {
        if let made = madePageWorld { return made }
        if let make = pageWorldMaker { return make(self) }
        let world = World(kind: .page, context: JSContext(group: handle.context.group, name: "page \(id)", globalClassName: "Window"))
        world.page = self
        madePageWorld = world
        return world
    }
    /// Makes the page world (set by the session that opens the page).
    package var pageWorldMaker: ((Page) -> World)?
    /// The page world once made (see ``pageWorld``).
    package var madePageWorld: World?
    /// Whether the page world has been made.
    public var hasPageWorld: Bool { madePageWorld != nil }
    /// Content worlds, by extension id.
    public private(set) var contentWorlds: [String: World] = [:]
    /// Console output of every world, in order.
    public private(set) var console: [ConsoleMessage] = []
    /// Script exceptions (page scripts, content scripts, timers, listeners), in order.
    public private(set) var errors: [PageError] = []
    /// True once the page has been navigated away from or closed.
    public private(set) var isClosed = false

    package let handle: JSValue
    package weak var session: WebSession?

    /// A Content Security Policy without 'unsafe-inline' (an extension page's): inline scripts,
    /// parsed or inserted, classic or module, do not run, and this message goes to the page's
    /// console as an error instead. Nil: inline scripts run.
    public var inlineScriptRefusal: String? {
        didSet { try? handle.set("inlineScriptRefusal", inlineScriptRefusal.map { handle.context.string($0) } ?? handle.context.null) }
    }

    /// Says `inlineScriptRefusal` on the page's console in place of an inline script.
    package func refuseInlineScript() {
        guard let message = inlineScriptRefusal else { return }
        _ = try? pageWorld.global["console"].invoke("error", [pageWorld.context.string(message)])
    }

    init(id: Int, url: String, handle: JSValue, session: WebSession) {
        self.id = id
        self.url = url
        self.handle = handle
        self.session = session
    }

    /// The `document`.
    public var document: JSValue { handle["document"] }

    /// `document.readyState`.
    public var readyState: String { document["readyState"].stringValue ?? "" }

    /// The document's title as the browser shows it, whatever the page did to the
    /// `document.title` getter. It is read again only once the document has changed: every
    /// message's sender carries its tab's title, and reading it runs script, while the change
    /// count is a plain property (JS/boot/engine.js, the mutation fan-out).
    public var title: String {
        let version = document["_advMutations"].numberValue ?? 0
        if let cached = titleCache, cached.version == version { return cached.title }
        let title = (try? handle.invoke("title").stringValue) ?? nil
        titleCache = (version, title ?? "")
        return title ?? ""
    }
    private var titleCache: (version: Double, title: String)?

    /// The content world of `extensionID`, made on first use.
    /// - Throws: ``JSError`` if the world cannot be set up.
    public func contentWorld(for extensionID: String) throws -> World {
        if let world = contentWorlds[extensionID] { return world }
        guard let session, !isClosed else {
            throw JSError(name: "InvalidStateError", message: "page \(url) is closed")
        }
        let world = try session.makeWorld(kind: .content(extensionID: extensionID), page: self)
        contentWorlds[extensionID] = world
        return world
    }

    /// Every world the page has, page world first (once made), then content worlds by extension id.
    public var worlds: [World] {
        (madePageWorld.map { [$0] } ?? []) + contentWorlds.keys.sorted().compactMap { contentWorlds[$0] }
    }

    /// The world named `page` or `content:<id>`.
    public func world(named name: String) -> World? {
        if name == "page" { return pageWorld }
        return worlds.first { $0.name == name }
    }

    // MARK: - Reports

    package func report(_ report: JSErrorReport, world: String) {
        if report.error.isTermination, let session {
            // The watchdog stopped the session: say so once, with its reason and place; the
            // calls that fail after it (every one does) are not separate errors of the page.
            guard !session.stopReported else { return }
            session.stopReported = true
            errors.append(PageError(time: session.loop.now, world: world, report: report))
            let termination = session.watchdog.termination
            var text = "JavaScript stopped: " + (termination.map { "it \($0)" } ?? "terminated") + " during \(report.during)"
            text += session.stackSuffix(termination?.stack)
            session.trace.record(.error, at: session.locationName(self, world), text)
            return
        }
        errors.append(PageError(time: session?.loop.now ?? .zero, world: world, report: report))
        if let session {
            var text = report.error.description + " during " + report.during
            text += session.stackSuffix(report.error.stack)
            session.trace.record(.error, at: session.locationName(self, world), text)
        }
    }

    func log(world: String, level: String, text: String) {
        console.append(ConsoleMessage(time: session?.loop.now ?? .zero, world: world, level: level, text: text))
        if let session {
            session.trace.record(.console, at: session.locationName(self, world), "\(level): \(text)")
        }
    }

    /// Runs a <script> element's code in the page world with `document.currentScript` set to it.
    /// Its `import()` calls resolve against `referrer` (an external script's URL), or against
    /// the document's base URL when nil (an inline script).
    package func runScript(_ element: JSValue, _ source: String, sourceURL: String, startingLine: Int = 1, referrer: String? = nil, during: String) {
        let previous = try? handle.invoke("setCurrentScript", [element])
        pageWorld.run(classicSource(source, in: pageWorld, referrer: referrer), sourceURL: sourceURL, startingLine: startingLine, during: during)
        _ = try? handle.invoke("setCurrentScript", [previous ?? handle.context.null])
    }

    /// Ends the page: cancels its timers and frames and undoes prototype patches.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        session?.pageClosed(self)
    }
}

/// A script exception seen on a page.
public struct PageError: CustomStringConvertible {
    /// Virtual time it was thrown.
    public let time: VirtualTime
    /// The world it was thrown in (best knowledge: timers report the page world).
    public let world: String
    /// The exception and what was running.
    public let report: JSErrorReport

    public var description: String { "\(time) \(world) \(report)" }
}
