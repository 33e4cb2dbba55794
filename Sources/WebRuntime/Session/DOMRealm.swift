import JSKit
import WebPlatform

/// The engine realm of a session: the one realm in a context group where domino (the DOM) is
/// loaded. Pages are documents made here; worlds are separate realms that reach them through
/// their global object's prototype (see JS/boot/engine.js).
///
/// Loading domino is the expensive part of a session (a few thousand lines of module code), so it
/// happens once per context group; each page costs one parse and two fresh realms.
package final class DOMRealm {
    package let context: JSContext
    /// The object JS/boot/engine.js returns: createPage, initWorld, endSession.
    package let engine: JSValue
    /// The web-platform layers' harness-side functions, by layer name (`cascade`, `media`, …).
    let web: JSValue
    private let createPageFunction: JSValue
    private let initWorldFunction: JSValue
    private let endSessionFunction: JSValue
    /// The names of the window members each world's WindowProperties object answers for, by the
    /// number the membrane gave the list (shared with the worlds' host functions, which may
    /// outlive this object: a page can outlive its session).
    private let windowNames = WindowNameLists()

    /// Loads the loader, domino, the layers (in the order of ``LayerCatalog``) and the engine
    /// script into a new realm of `group`.
    /// - Throws: ``MissingPackageError`` when a Debian package is missing, ``LayerCatalogError``
    ///   when the layers' headers do not give an order, ``JSError`` when a script fails to load.
    init(group: JSContextGroup, host: DOMRealmHost) throws {
        let domino = try JSPackages.domino()
        let cssom = try JSPackages.cssom()
        context = JSContext(group: group, name: "engine")
        let global = context.globalObject
        // domino reaches for Node's `global` and for timer functions while its modules load.
        try global.set("global", global)

        let hostObject = host.makeHostObject(in: context)
        let makeRequire = try Self.evaluate("boot/loader.js", in: context)
        var table: [String: Any?] = [:]
        for package in [domino, cssom, try JSPackages.acorn()] + (try JSPackages.selectorEngine()) {
            table[package.name] = ["root": package.root, "main": package.main] as [String: Any?]
        }
        let packages = try context.value(table)
        let require = try makeRequire.call([hostObject, packages])

        let installPlatform = try Self.evaluate("boot/platform.js", in: context)
        let makeURL = try Self.evaluate("boot/url.js", in: context)
        let makeMembrane = try Self.evaluate("boot/membrane.js", in: context)
        // The catalog is read once per process; a session only evaluates the (cached) sources.
        let catalog = try LayerCatalog.shipped()
        var layers: [JSValue] = []
        for layer in catalog.layers { layers.append(try Self.evaluate(layer.path, in: context)) }
        let makeEngine = try Self.evaluate(catalog.engine.path, in: context)
        engine = try makeEngine.call([hostObject, require, installPlatform, try context.array(layers), makeURL, makeMembrane])
        web = try engine.property("web")
        createPageFunction = try engine.property("createPage")
        initWorldFunction = try engine.property("initWorld")
        endSessionFunction = try engine.property("endSession")
    }

    /// Evaluates the script `JS/<path>` of the web platform in `context`, named by its path.
    private static func evaluate(_ path: String, in context: JSContext) throws -> JSValue {
        try context.evaluate(try SourceCache.shared.resource(path), sourceURL: "adv-runtime:///" + path)
    }

    /// Makes a document for `url` and the shared object its worlds inherit from.
    /// - Throws: ``JSError`` from the engine script.
    /// `historySession` names the session history the page joins (nil: one of its own).
    func createPage(id: Int, url: String, timeOrigin: Double, historySession: String? = nil) throws -> JSValue {
        try createPageFunction.call([context.number(Double(id)), context.string(url), context.number(timeOrigin),
                                     historySession.map { context.string($0) } ?? context.null])
    }

    /// Turns a fresh realm's global into a window of `page`.
    /// - Throws: ``JSError`` from the engine script.
    func initWorld(_ world: JSContext, page: JSValue, pageID: Int, worldID: String, isPageWorld: Bool, seed: UInt32) throws {
        let global = world.globalObject
        // A global object's own prototype is immutable, but a world is made with a global class
        // (see WebSession.makeRealm), whose automatic prototype object is ordinary: the engine
        // chains the world's window members behind it, so `document` and the DOM are on the
        // world's scope chain while its own builtins and top-level bindings stay its own.
        // boot/world.js runs in the world's realm: the functions it makes are the world's.
        let makeWorld = try world.evaluate(hostScript: try SourceCache.shared.resource("boot/world.js"), sourceURL: "adv-runtime:///boot/world.js")
        // Compiles code the membrane generates (a prototype's members in one object literal) in
        // the world's realm as the runtime's own: unlike `new Function`, it works where the
        // world's content security policy forbids eval (extension pages), and its frames are
        // named adv-runtime:, which stacks leave out.
        // The membrane numbers its sources for the engine's lifetime (a call names one by its
        // number and passes its text too): the parsed script is kept by number, so the text, as
        // long as a prototype's members, is read into Swift only the first time. The numbers are
        // unique in the group because a group has one engine realm, so one membrane
        // (SessionEngine makes one DOMRealm per group).
        let compile = world.function("compile", length: 2) { [weak world] call in
            guard let world else { return call.context.undefined }
            let number = Int(try call.argument(0).toNumber())
            let script = try world.group.script(number: number, sourceURL: "adv-runtime:///boot/generated.js") { try call.argument(1).toString() }
            return try script.evaluate(in: world)
        }
        // The object behind the window members that answers for the DOM's interfaces until each is
        // first read (boot/membrane.js installWindow): `(id, names, resolve)`, the names a list the
        // membrane numbered, read into Swift once per number.
        let windowNames = self.windowNames
        let namedProperties = world.function("namedProperties", length: 3) { [weak world] call in
            guard let world else { return call.context.undefined }
            let id = Int(try call.argument(0).toNumber())
            let names: Set<String>
            if let known = windowNames.lists[id] {
                names = known
            } else {
                let list = call.argument(1)
                let count = Int(try list["length"].toNumber())
                names = Set(try (0..<count).map { try list[$0].toString() })
                if windowNames.lists.count < JSContextGroup.scriptCacheLimit { windowNames.lists[id] = names }
            }
            return world.lazyProperties(className: "WindowProperties", names: names, resolve: call.argument(2))
        }
        try initWorldFunction.call([
            global, page, context.number(Double(pageID)), context.string(worldID),
            context.boolean(isPageWorld), context.number(Double(seed)), makeWorld, compile, namedProperties,
        ])
    }

    /// Forgets the session that used this realm (its pages closed): the layers' per-session
    /// state and the browser's hooks. Nothing else needs undoing: no page reaches this realm
    /// (JS/boot/membrane.js).
    func endSession() throws {
        try endSessionFunction.call()
    }
}

/// The Swift side of the engine realm's `host` object: time, timers, frames, console, errors.
protocol DOMRealmHost: AnyObject {
    /// Virtual wall-clock time in epoch milliseconds (what `Date.now()` returns).
    func epochMilliseconds() -> Double
    func setTimer(page: Int, callback: JSValue, timeout: Int, repeating: Bool, arguments: [JSValue], source: String) -> Int
    func clearTimer(page: Int, id: Int)
    func requestFrame(page: Int, callback: JSValue, source: String) -> Int
    func cancelFrame(page: Int, id: Int)
    /// A step of the page's next rendering update, after its animation frame callbacks.
    func requestRenderingStep(page: Int, callback: JSValue, source: String)
    func console(page: Int, world: String, level: String, text: String)
    func reportError(page: Int, error: JSError, during: String)
    /// Stops the session's JavaScript when its deadline or per-call limit has passed (the
    /// runtime's own jobs, such as MutationObserver delivery, ask: a feedback loop of them is a
    /// chain of microtasks, each too short for the engine's time limit to see).
    func checkBudget(from context: JSContext, what: String?)
    /// Makes the page world of `page` if it has none yet.
    func makePageWorld(page: Int)
    func fetch(page: Int, url: String, method: String, headers: String) -> FetchOutcome
    func queueTask(page: Int, callback: JSValue, label: String)
    /// The text of a subresource the page loads synchronously (`<link rel=stylesheet>`), or nil
    /// when it cannot be loaded.
    func loadResource(url: String) -> String?
    /// A DOM, style sheet or media change made by extension code (traced in the extension's
    /// content world, on `channel`).
    func traceDOM(page: Int, extensionID: String, text: String, channel: TraceChannel)
    /// The page's URL changed without a new document: `kind` is pushState, replaceState,
    /// fragment or traversal (JS/navigation/history.js).
    func urlChanged(page: Int, url: String, kind: String)
    /// The page asks to load `url` in its place (`kind`: push, replace, reload or traverse);
    /// false when nothing will load it.
    func navigate(page: Int, url: String, kind: String) -> Bool
}

/// What the network answers a page's `fetch`.
public enum FetchOutcome {
    /// A rule blocked it: the promise rejects with "Load failed".
    case blocked
    /// A response with a status and a text body; the URL it came from (after redirects, nil for
    /// the URL asked for), its headers as `name: value` lines, and whether it was redirected.
    case response(status: Int, body: String, url: String? = nil, headers: String = "", redirected: Bool = false)
}

extension DOMRealmHost {
    /// Builds the `host` object handed to the loader and the engine script. The functions hold
    /// the host weakly: the realm must not keep its session alive.
    func makeHostObject(in context: JSContext) -> JSValue {
        let object = context.object()
        weak let host = self
        func define(_ name: String, _ length: Int, _ body: @escaping HostFunctionBody) {
            try? object.set(name, context.function(name, length: length, body))
        }
        define("compile", 1) { call in
            let path = try call.argument(0).toString()
            // An optional suffix exports a module-private function (see JS/boot/loader.js `exposures`).
            let suffix = call.argument(1).stringValue ?? ""
            let source = try SourceCache.shared.text(atPath: path) + suffix
            // The wrapper opens on the file's first line, so reported lines match the file.
            return try call.context.evaluate(
                "(function (exports, require, module, __filename, __dirname) {" + source + "\n})",
                sourceURL: "file://" + path)
        }
        // Code the runtime generates (boot/membrane.js's per-name property readers), compiled as
        // the runtime's own so that stacks leave its frames out.
        define("compileRuntime", 1) { call in
            try call.context.evaluate(try call.argument(0).toString(), sourceURL: "adv-runtime:///boot/generated.js")
        }
        // A runtime data script (JS/<path>, an expression such as css/css-properties.js),
        // evaluated when a layer first needs it.
        define("resource", 1) { call in
            let name = try call.argument(0).toString()
            return try call.context.evaluate(try SourceCache.shared.resource(name), sourceURL: "adv-runtime:///" + name)
        }
        define("now", 0) { call in call.context.number(host?.epochMilliseconds() ?? 0) }
        define("setTimer", 6) { call in
            let arguments = call.argument(4)
            let count = Int((try? arguments["length"].toNumber()) ?? 0)
            let id = host?.setTimer(
                page: Int(try call.argument(0).toNumber()), callback: call.argument(1),
                timeout: Int(try call.argument(2).toNumber()), repeating: call.argument(3).toBool,
                arguments: (0..<count).map { arguments[$0] }, source: try call.argument(5).toString()) ?? 0
            return call.context.number(Double(id))
        }
        define("clearTimer", 2) { call in
            host?.clearTimer(page: Int(try call.argument(0).toNumber()), id: Int(try call.argument(1).toNumber()))
            return nil
        }
        define("requestFrame", 3) { call in
            let id = host?.requestFrame(page: Int(try call.argument(0).toNumber()), callback: call.argument(1),
                                        source: try call.argument(2).toString()) ?? 0
            return call.context.number(Double(id))
        }
        define("renderingStep", 3) { call in
            host?.requestRenderingStep(page: Int(try call.argument(0).toNumber()), callback: call.argument(1), source: try call.argument(2).toString())
            return nil
        }
        define("cancelFrame", 2) { call in
            host?.cancelFrame(page: Int(try call.argument(0).toNumber()), id: Int(try call.argument(1).toNumber()))
            return nil
        }
        define("console", 4) { call in
            host?.console(page: Int(try call.argument(0).toNumber()), world: try call.argument(1).toString(),
                          level: try call.argument(2).toString(), text: try call.argument(3).toString())
            return nil
        }
        define("loadResource", 1) { call in
            guard let text = host?.loadResource(url: try call.argument(0).toString()) else { return call.context.null }
            return call.context.string(text)
        }
        define("fetch", 4) { call in
            let url = try call.argument(1).toString()
            let outcome = host?.fetch(page: Int(try call.argument(0).toNumber()), url: url,
                                      method: try call.argument(2).toString(), headers: call.argument(3).stringValue ?? "") ?? .response(status: 404, body: "")
            switch outcome {
            case .blocked: return try call.context.value(["blocked": true])
            case let .response(status, body, finalURL, headers, redirected):
                return try call.context.value(["blocked": false, "status": status, "body": body, "url": finalURL ?? url,
                                               "headers": headers, "redirected": redirected])
            }
        }
        define("queueTask", 3) { call in
            host?.queueTask(page: Int(try call.argument(0).toNumber()), callback: call.argument(1),
                            label: call.argument(2).stringValue ?? "network response")
            return nil
        }
        define("traceDOM", 4) { call in
            let channel = call.argument(3).stringValue.map { TraceChannel(rawValue: $0) } ?? .dom
            host?.traceDOM(page: Int(try call.argument(0).toNumber()), extensionID: try call.argument(1).toString(),
                           text: try call.argument(2).toString(), channel: channel)
            return nil
        }
        define("urlChanged", 3) { call in
            host?.urlChanged(page: Int(try call.argument(0).toNumber()), url: try call.argument(1).toString(), kind: try call.argument(2).toString())
            return nil
        }
        define("navigate", 3) { call in
            let asked = host?.navigate(page: Int(try call.argument(0).toNumber()), url: try call.argument(1).toString(),
                                       kind: try call.argument(2).toString()) ?? false
            return call.context.boolean(asked)
        }
        // The engine needs a page's page world it has not made yet (handle.worlds.page): a script
        // element inserted, an event handler attribute compiled, a frame reached from it.
        define("makePageWorld", 1) { call in
            host?.makePageWorld(page: Int(try call.argument(0).toNumber()))
            return nil
        }
        define("checkBudget", 1) { call in
            host?.checkBudget(from: call.context, what: call.argument(0).stringValue)
            return nil
        }
        define("reportError", 3) { call in
            host?.reportError(page: Int(try call.argument(0).toNumber()), error: JSError(thrown: call.argument(1)),
                              during: call.argument(2).stringValue ?? "a microtask")
            return nil
        }
        return object
    }
}

/// See ``DOMRealm``'s `windowNames`.
private final class WindowNameLists {
    var lists: [Int: Set<String>] = [:]
}
