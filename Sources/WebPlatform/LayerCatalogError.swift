/// Why the layers cannot be put in an order: each case names the layers concerned.
package enum LayerCatalogError: Error, Equatable, CustomStringConvertible {
    /// A file's header cannot be read: `path` under `JS/`, and what is wrong with it.
    case unreadableHeader(path: String, problem: String)
    /// `layer` requires `name`, and neither the engine nor any layer provides it.
    case missingRequirement(layer: String, name: String)
    /// Layers that need each other, each requiring `names[i]` from the next (the last from the
    /// first).
    case cycle(layers: [String], names: [String])
    /// More than one layer (or the engine and a layer) provides `name`.
    case duplicateProvider(name: String, providers: [String])
    /// Two declarations share a layer name.
    case duplicateLayer(name: String)
    /// There is no engine header, or there is more than one (`found` names them).
    case engine(found: [String])
    /// The bundle has no `JS` folder.
    case missingFolder(bundle: String)

    /// The message, naming the layers (and the file or member) at fault.
    package var description: String {
        switch self {
        case let .unreadableHeader(path, problem):
            return "the layer header of '\(path)' cannot be parsed: \(problem)"
        case let .missingRequirement(layer, name):
            return "layer '\(layer)' requires '\(name)', which no layer provides"
        case let .cycle(layers, names):
            let path = (layers + layers.prefix(1)).map { "'\($0)'" }.joined(separator: " → ")
            let needs = zip(layers, names).map { "'\($0)' needs '\($1)'" }.joined(separator: ", ")
            return "layers \(path) require each other (\(needs))"
        case let .duplicateProvider(name, providers):
            let who = providers.map { "'\($0)'" }.joined(separator: " and ")
            return "layers \(who) \(providers.count == 2 ? "both" : "all") provide '\(name)'"
        case let .duplicateLayer(name):
            return "two layers are named '\(name)'"
        case let .engine(found):
            return found.isEmpty
                ? "no file has the engine's header ('// engine: …')"
                : "more than one file has the engine's header: " + found.map { "'\($0)'" }.joined(separator: ", ")
        case let .missingFolder(bundle):
            return "the bundle '\(bundle)' has no JS folder; rebuild with 'swift build'"
        }
    }
}
