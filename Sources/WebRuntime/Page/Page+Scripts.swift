import JSKit

extension Page {
    /// `source`, a classic script of `world`, with each `import()` made a call on the module
    /// loader (JS/scripting/modules.js): JavaScriptCore's C API has no loader of its own, and its
    /// `import()` rejects. The specifiers resolve against `referrer` (the script's URL), or the
    /// document's base URL when nil. The source is returned as it is when it has no `import(`.
    package func classicSource(_ source: String, in world: World, referrer: String?) -> String {
        guard source.contains("import"), !isClosed else { return source }
        return (try? callWeb("modules", "classicScriptSource", [world.global, source, referrer]))?.stringValue ?? source
    }

    /// Runs the module at `url` with its imports as the top-level script of `world`, as a
    /// browser runs a module worker or background (HTML "fetch a module worker script graph",
    /// then "run a module script"). What goes wrong (a failed fetch, a syntax or link error, an
    /// exception or a rejected top-level await) is reported on the page with `during`. With
    /// `serviceWorker`, the world's `import()` rejects, as WebKit's does in a service worker.
    /// - Throws: ``JSError`` when the module loader cannot be reached.
    package func runModule(url: String, in world: World, serviceWorker: Bool, during: String) throws {
        world.noteExtensionCode(url)
        try callWeb("modules", "runModule", [world.global, url, serviceWorker, during])
    }

    /// Makes `world` one whose `import()` rejects with WebKit's TypeError (a service worker's,
    /// HTML 8.1.5.3 HostLoadImportedModule).
    /// - Throws: ``JSError`` when the module loader cannot be reached.
    package func disallowDynamicImport(in world: World) throws {
        try callWeb("modules", "markServiceWorker", [world.global])
    }
}
