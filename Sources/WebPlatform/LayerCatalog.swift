import Foundation

/// The web platform layers in the order they load: each after the layers that provide what it
/// requires, and otherwise by its declared `order`, then its name, so the order is the same on
/// every run (the golden traces depend on it: mutation listeners, page set-up and window members
/// follow the load order).
package struct LayerCatalog: Sendable, Equatable {
    /// The engine's declaration: its provides are the context's own members, its requires what
    /// it calls on the layers.
    package let engine: LayerDeclaration
    /// The layers, in load order.
    package let layers: [LayerDeclaration]

    /// Orders `layers`, which run under `engine`.
    /// - Throws: ``LayerCatalogError`` for two layers of one name, a name provided twice, a
    ///   requirement nothing provides, or layers that require each other.
    package init(engine: LayerDeclaration, layers: [LayerDeclaration]) throws {
        var names = Set<String>([engine.name])
        for layer in layers where !names.insert(layer.name).inserted {
            throw LayerCatalogError.duplicateLayer(name: layer.name)
        }
        let candidates = layers.sorted { ($0.order, $0.name) < ($1.order, $1.name) }
        let declarations = [engine] + candidates

        var providers: [String: [String]] = [:]
        for declaration in declarations {
            for name in declaration.provides { providers[name, default: []].append(declaration.name) }
        }
        for declaration in declarations {
            for name in declaration.provides {
                if let both = providers[name], both.count > 1 { throw LayerCatalogError.duplicateProvider(name: name, providers: both) }
            }
        }
        for declaration in candidates + [engine] {
            for name in declaration.requires where providers[name] == nil {
                throw LayerCatalogError.missingRequirement(layer: declaration.name, name: name)
            }
        }

        // The layers each one waits for; what the engine provides is there from the start.
        var waitsFor: [String: Set<String>] = [:]
        for layer in candidates {
            // Every requirement has a provider (checked above); the engine's are there from the start.
            waitsFor[layer.name] = Set(layer.requires.compactMap { providers[$0]?.first }.filter { $0 != engine.name })
        }
        var ordered: [LayerDeclaration] = []
        var loaded = Set<String>()
        var remaining = candidates
        while !remaining.isEmpty {
            // `remaining` stays in (order, name) order, so the first ready layer is the tie-break.
            guard let index = remaining.firstIndex(where: { (waitsFor[$0.name] ?? []).isSubset(of: loaded) }) else {
                throw Self.cycle(among: remaining, waitsFor: waitsFor, providers: providers)
            }
            let layer = remaining.remove(at: index)
            ordered.append(layer)
            loaded.insert(layer.name)
        }
        self.engine = engine
        self.layers = ordered
    }

    /// One cycle among `remaining`, none of which is ready: walking from any of them to a layer
    /// it waits for must come back to a layer already seen.
    private static func cycle(among remaining: [LayerDeclaration], waitsFor: [String: Set<String>],
                              providers: [String: [String]]) -> LayerCatalogError {
        let byName = Dictionary(uniqueKeysWithValues: remaining.map { ($0.name, $0) })
        var walk: [LayerDeclaration] = [remaining[0]]
        while true {
            let current = walk[walk.count - 1]
            // The first layer it waits for, in load-preference order, so the report is stable.
            // None of `remaining` is ready, so each waits for one of them.
            guard let next = remaining.first(where: { waitsFor[current.name]?.contains($0.name) == true }) else {
                return .cycle(layers: walk.map(\.name), names: [])
            }
            if let start = walk.firstIndex(where: { $0.name == next.name }) {
                let loop = Array(walk[start...])
                let needs = loop.indices.map { index -> String in
                    let provider = loop[(index + 1) % loop.count].name
                    return loop[index].requires.first { providers[$0]?.first == provider } ?? provider
                }
                return .cycle(layers: loop.map(\.name), names: needs)
            }
            walk.append(byName[next.name] ?? next)
        }
    }
}

extension LayerCatalog {
    /// The catalog of the layers in ``WebPlatform/bundle``, read once per process (sessions
    /// reuse it: no file-system scan per session).
    /// - Throws: ``LayerCatalogError`` or a Foundation error reading a file, the same each call.
    package static func shipped() throws -> LayerCatalog {
        try shippedCatalog.get()
    }

    private static let shippedCatalog = Result<LayerCatalog, any Error> {
        guard let folder = WebPlatform.scriptsFolder else {
            throw LayerCatalogError.missingFolder(bundle: WebPlatform.bundle.bundleURL.lastPathComponent)
        }
        return try read(folder: folder)
    }

    /// Reads the header of every script under `folder` and orders the layers among them.
    /// - Throws: ``LayerCatalogError``, or a Foundation error when a file cannot be read.
    package static func read(folder: URL) throws -> LayerCatalog {
        var engines: [LayerDeclaration] = []
        var layers: [LayerDeclaration] = []
        for path in try scriptPaths(in: folder) {
            let text = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
            switch try LayerDeclaration.parse(text, path: path) {
            case let (.engine, declaration)?: engines.append(declaration)
            case let (.layer, declaration)?: layers.append(declaration)
            case nil: continue
            }
        }
        guard engines.count == 1 else { throw LayerCatalogError.engine(found: engines.map(\.name)) }
        return try LayerCatalog(engine: engines[0], layers: layers)
    }

    /// The paths of the `.js` files under `folder` (recursively), relative to it with `/`
    /// between folders, sorted.
    /// - Throws: a Foundation error when the folder cannot be listed.
    package static func scriptPaths(in folder: URL) throws -> [String] {
        let root = folder.resolvingSymlinksInPath().standardizedFileURL.path
        guard let files = FileManager.default.enumerator(atPath: root) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: root])
        }
        var paths: [String] = []
        while let path = files.nextObject() as? String {
            if path.hasSuffix(".js") { paths.append(path) }
        }
        return paths.sorted()
    }
}
