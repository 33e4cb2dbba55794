import Foundation
import JSKit
import Testing
import WebPlatform
import WebRuntime

/// The layers' headers say what their code does: every `ctx.NAME` a layer reads is its own, the
/// engine's or required, every `ctx.NAME = …` it makes is in its provides, and the context a
/// session ends up with holds exactly the declared names.
@Suite struct LayerDeclarationDriftTests {
    @Test func everyContextMemberALayerReadsOrSetsIsDeclared() throws {
        let catalog = try LayerCatalog.shipped()
        let base = Set(catalog.engine.provides)
        for layer in catalog.layers {
            let uses = try contextUses(in: layer.path)
            let provides = Set(layer.provides), requires = Set(layer.requires)
            for name in uses.read.subtracting(provides).subtracting(base).sorted() {
                #expect(requires.contains(name), "layer '\(layer.name)' reads ctx.\(name) but does not require it")
            }
            for name in uses.set.sorted() {
                #expect(provides.contains(name), "layer '\(layer.name)' sets ctx.\(name) but does not provide it")
            }
            for name in provides.subtracting(uses.set).sorted() {
                #expect(Bool(false), "layer '\(layer.name)' provides '\(name)' but never sets ctx.\(name)")
            }
            for name in requires.subtracting(uses.read).sorted() {
                #expect(Bool(false), "layer '\(layer.name)' requires '\(name)' but never reads ctx.\(name)")
            }
        }
        let engine = try contextUses(in: catalog.engine.path)
        #expect(engine.set.isEmpty, "the engine sets its context members in the literal its header lists")
        #expect(engine.read.subtracting(base) == Set(catalog.engine.requires))
    }

    /// The context after every layer has loaded holds the engine's members and every layer's
    /// provides, and nothing else (a layer that sets a member through an alias shows here).
    @Test func theLoadedContextHoldsExactlyTheDeclaredNames() throws {
        let catalog = try LayerCatalog.shipped()
        let session = try WebSession()
        let names = try session.realm.engine.invoke("contextNames")
        let count = Int(try names["length"].toNumber())
        let loaded = try Set((0..<count).map { try names[$0].toString() })
        let declared = Set(catalog.engine.provides + catalog.layers.flatMap(\.provides))
        #expect(loaded == declared)
    }

    /// A script under JS/ that is neither a layer nor a boot script must be data a layer reads
    /// (`ctx.host.resource(…)`): otherwise it is a layer whose header is missing, and never loads.
    @Test func everyOtherScriptIsABootScriptOrAResourceALayerReads() throws {
        let catalog = try LayerCatalog.shipped()
        let folder = try #require(WebPlatform.scriptsFolder)
        let layers = Set(catalog.layers.map(\.path) + [catalog.engine.path])
        var resources = Set<String>()
        let resource = try Regex(#"ctx\.host\.resource\("([^"]+)"\)"#)
        for path in layers {
            for match in try source(of: path).matches(of: resource) {
                resources.insert(String(try #require(match.output[1].substring)))
            }
        }
        for path in try LayerCatalog.scriptPaths(in: folder) where !layers.contains(path) {
            #expect(path.hasPrefix("boot/") || resources.contains(path), "'\(path)' is no layer, boot script or resource a layer reads")
        }
        for path in resources {
            #expect(try LayerCatalog.scriptPaths(in: folder).contains(path), "a layer reads the resource '\(path)', which is missing")
        }
    }

    /// The members of `ctx` the script at `path` reads and sets, outside whole-line comments.
    private func contextUses(in path: String) throws -> (read: Set<String>, set: Set<String>) {
        let code = try source(of: path).split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.drop(while: { $0 == " " }).hasPrefix("//") }
            .joined(separator: "\n")
        let member = try Regex(#"\bctx\.([A-Za-z_$][A-Za-z0-9_$]*)(\s*=(?!=))?"#)
        var read = Set<String>(), set = Set<String>()
        for match in code.matches(of: member) {
            let name = String(try #require(match.output[1].substring))
            if match.output[2].substring != nil { set.insert(name) } else { read.insert(name) }
        }
        return (read, set)
    }

    private func source(of path: String) throws -> String {
        try SourceCache.shared.resource(path)
    }
}
