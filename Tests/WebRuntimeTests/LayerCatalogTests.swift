import Testing
import WebPlatform

/// The layer catalog: the shipped layers resolve, and a catalog that cannot be ordered says which
/// layers are at fault.
@Suite struct LayerCatalogTests {
    let engine = LayerDeclaration(name: "boot/engine", provides: ["impl", "host"], requires: [])

    @Test func theShippedLayersResolveWithEveryProviderBeforeItsUsers() throws {
        let catalog = try LayerCatalog.shipped()
        #expect(catalog.layers.count > 20)
        var provided = Set(catalog.engine.provides)
        for layer in catalog.layers {
            for name in layer.requires {
                #expect(provided.contains(name), "layer '\(layer.name)' loads before what provides '\(name)'")
            }
            provided.formUnion(layer.provides)
        }
        for name in catalog.engine.requires {
            #expect(provided.contains(name), "no layer provides '\(name)', which the engine calls")
        }
    }

    /// The declared orders alone give the load order (no requirement had to move a layer), so
    /// the order is the one the golden traces were recorded with as long as the orders stay.
    @Test func theShippedOrderIsTheDeclaredOrder() throws {
        let catalog = try LayerCatalog.shipped()
        let declared = catalog.layers.sorted { ($0.order, $0.name) < ($1.order, $1.name) }
        #expect(catalog.layers.map(\.name) == declared.map(\.name))
        #expect(Set(catalog.layers.map(\.order)).count == catalog.layers.count, "two layers share an order")
    }

    @Test func aRequirementNothingProvidesNamesTheLayer() {
        let layers = [
            LayerDeclaration(name: "css/values", order: 1, provides: ["splitTopLevel"]),
            LayerDeclaration(name: "css/cssom", order: 2, provides: ["style"], requires: ["splitTopLevel", "judgeDeclaration"]),
        ]
        let error = catalogError(engine: engine, layers: layers)
        #expect(error == .missingRequirement(layer: "css/cssom", name: "judgeDeclaration"))
        #expect(error?.description == "layer 'css/cssom' requires 'judgeDeclaration', which no layer provides")
    }

    @Test func layersThatRequireEachOtherAreNamedInTheirCycle() {
        let layers = [
            LayerDeclaration(name: "dom/first", order: 1, provides: ["first"]),
            LayerDeclaration(name: "css/cssom", order: 2, provides: ["style"], requires: ["first", "judgeDeclaration"]),
            LayerDeclaration(name: "css/cascade", order: 3, provides: ["judgeDeclaration", "computeStyle"], requires: ["boxOf"]),
            LayerDeclaration(name: "layout/geometry", order: 4, provides: ["boxOf"], requires: ["style"]),
            // Waits for the cycle without being part of it.
            LayerDeclaration(name: "events/input", order: 5, requires: ["boxOf"]),
        ]
        let error = catalogError(engine: engine, layers: layers)
        #expect(error == .cycle(layers: ["css/cssom", "css/cascade", "layout/geometry"], names: ["judgeDeclaration", "boxOf", "style"]))
        #expect(error?.description == "layers 'css/cssom' → 'css/cascade' → 'layout/geometry' → 'css/cssom' require each other "
            + "('css/cssom' needs 'judgeDeclaration', 'css/cascade' needs 'boxOf', 'layout/geometry' needs 'style')")
    }

    @Test func twoLayersRequiringEachOtherAreACycleOfTwo() {
        let layers = [
            LayerDeclaration(name: "a", order: 1, provides: ["x"], requires: ["y"]),
            LayerDeclaration(name: "b", order: 2, provides: ["y"], requires: ["x"]),
        ]
        #expect(catalogError(engine: engine, layers: layers)?.description
            == "layers 'a' → 'b' → 'a' require each other ('a' needs 'y', 'b' needs 'x')")
    }

    @Test func aNameProvidedTwiceNamesBothProviders() {
        let layers = [
            LayerDeclaration(name: "events/events", order: 1, provides: ["eventClass"]),
            LayerDeclaration(name: "messaging/channel-messaging", order: 2, provides: ["eventClass", "MessageEvent"]),
        ]
        let error = catalogError(engine: engine, layers: layers)
        #expect(error == .duplicateProvider(name: "eventClass", providers: ["events/events", "messaging/channel-messaging"]))
        #expect(error?.description == "layers 'events/events' and 'messaging/channel-messaging' both provide 'eventClass'")
        let shadowing = [LayerDeclaration(name: "dom/dom", order: 1, provides: ["host"])]
        #expect(catalogError(engine: engine, layers: shadowing) == .duplicateProvider(name: "host", providers: ["boot/engine", "dom/dom"]))
        let twice = [LayerDeclaration(name: "dom/dom", order: 1), LayerDeclaration(name: "dom/dom", order: 2)]
        #expect(catalogError(engine: engine, layers: twice) == .duplicateLayer(name: "dom/dom"))
    }

    @Test func requirementsComeFirstThenTheDeclaredOrderThenTheName() throws {
        let layers = [
            LayerDeclaration(name: "z/uses", order: 1, requires: ["late"]),
            LayerDeclaration(name: "b/plain", order: 2),
            LayerDeclaration(name: "a/plain", order: 2),
            LayerDeclaration(name: "m/late", order: 3, provides: ["late"], requires: ["host"]),
        ]
        let catalog = try LayerCatalog(engine: engine, layers: layers)
        #expect(catalog.layers.map(\.name) == ["a/plain", "b/plain", "m/late", "z/uses"])
        #expect(try LayerCatalog(engine: engine, layers: layers.reversed()) == catalog)
    }

    @Test func anEngineRequirementNothingProvidesIsNamed() {
        let engine = LayerDeclaration(name: "boot/engine", provides: ["impl"], requires: ["makeFetchResponse"])
        #expect(catalogError(engine: engine, layers: [])?.description
            == "layer 'boot/engine' requires 'makeFetchResponse', which no layer provides")
    }

    @Test func headersAreReadFromTheFilesFirstLines() throws {
        let text = """
            // layer: css/cssom
            // order: 30
            // provides: style, parseSheet
            // provides: collectSheets
            // requires:
            //
            // CSSOM. Not a header line: // requires: x
            (function (ctx) {})
            """
        let parsed = try #require(try LayerDeclaration.parse(text, path: "css/cssom.js"))
        #expect(parsed.kind == .layer)
        #expect(parsed.declaration == LayerDeclaration(name: "css/cssom", order: 30, provides: ["style", "parseSheet", "collectSheets"]))
        let engine = try #require(try LayerDeclaration.parse("// engine: boot/engine\n// provides: impl\n// requires: x\n", path: "boot/engine.js"))
        #expect(engine.kind == .engine)
        #expect(engine.declaration.requires == ["x"])
        #expect(try LayerDeclaration.parse("// The loader.\n(function () {})", path: "boot/loader.js") == nil)
    }

    @Test(arguments: [
        ("// layer: css/cssom\n// order: 1\n// provides: a\n", "it has no 'requires:' line"),
        ("// layer: css/cssom\n// provides: a\n// requires: b\n", "it has no 'order:' line"),
        ("// layer: css/cssom\n// order: first\n// provides:\n// requires:\n", "its order 'first' is not a whole number"),
        ("// layer: css/cssom\n// order: 1\n// order: 2\n// provides:\n// requires:\n", "it has more than one 'order:' line"),
        ("// layer: css/cascade\n// order: 1\n// provides:\n// requires:\n", "it names itself 'css/cascade', but its file makes it 'css/cssom'"),
        ("// layer: css/cssom\n// order: 1\n// provides: a b\n// requires:\n", "'a b' in its 'provides:' is not a context member name"),
        ("// layer: css/cssom\n// order: 1\n// provides: a,,b\n// requires:\n", "'' in its 'provides:' is not a context member name"),
        ("// layer: css/cssom\n// order: 1\n// provides: a, a\n// requires:\n", "it lists 'a' twice in 'provides:'"),
        ("// layer: css/cssom\n// order: 1\n// provides: a\n// requires: a\n", "it both provides and requires 'a'"),
        ("// layer: css/cssom\n// order: 1\n// requies: a\n// provides:\n// requires:\n", "it has no 'provides:' line"),
    ])
    func aHeaderThatCannotBeParsedNamesItsFileAndProblem(text: String, problem: String) {
        #expect(throws: LayerCatalogError.unreadableHeader(path: "css/cssom.js", problem: problem)) {
            try LayerDeclaration.parse(text, path: "css/cssom.js")
        }
        let message = LayerCatalogError.unreadableHeader(path: "css/cssom.js", problem: problem).description
        #expect(message == "the layer header of 'css/cssom.js' cannot be parsed: " + problem)
    }

    private func catalogError(engine: LayerDeclaration, layers: [LayerDeclaration]) -> LayerCatalogError? {
        do {
            _ = try LayerCatalog(engine: engine, layers: layers)
            return nil
        } catch {
            return error as? LayerCatalogError
        }
    }
}
