import CommandLineKit
import Foundation
import ScenarioKit

/// `adv-harness serve`: the fixture pages over HTTP on 127.0.0.1, for checking them by hand in
/// Safari with the packaged extension.
enum ServeCommand {
    static let spec = CommandSpec(tool: "adv-harness", command: "serve", options: ["--port"], flags: [], maxPositionals: 0, help: help)

    static let help = """
    usage: adv-harness serve [--port N]

    Serves the fixture pages on http://127.0.0.1:N/ (default 8765; 0 picks a free port), never on
    another interface: every file under fixtures/sites and fixtures/pages at /sites/… and
    /pages/…, and each page a scenario opens at /HOST/PATH of its address and, when no two
    scenarios give that path different files, at /PATH too (the YouTube player model at
    /www.youtube.com/watch, whose script loads from /s/player/base.js). / lists them all.
    Runs until interrupted (Ctrl-C).
    """

    static func run(_ words: [String], output: CommandOutput) throws -> Int32 {
        let arguments = try Arguments(words, spec: spec)
        if arguments.wantsHelp { output.out(spec.help); return 0 }
        var port = 8765
        if let text = arguments.value("--port") {
            guard let value = Int(text), (0...65_535).contains(value) else {
                throw UsageError("--port must be a whole number from 0 to 65535, got '\(text)'")
            }
            port = value
        }
        let catalog = try RunCommand.locateCatalog()
        let server = FixtureServer(routes: try routes(catalog))
        // The stopping signals are blocked before the accept loop's thread starts (it inherits
        // the mask) and taken here with sigwait: this works whatever mask or dispositions the
        // process inherited (a parent that blocks SIGINT and SIGTERM in its threads passes that
        // on to what it spawns, and pause() would then never return).
        var stopping = sigset_t()
        sigemptyset(&stopping)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&stopping, signal) }
        pthread_sigmask(SIG_BLOCK, &stopping, nil)
        let actual = try server.start(port: port)
        output.out("serving \(server.routes.count) fixture files on http://127.0.0.1:\(actual)/ (Ctrl-C stops)")
        fflush(stdout)
        var received: Int32 = 0
        while sigwait(&stopping, &received) != 0 {}
        server.stop()
        // Ends as the signal's default action would, so that a shell sees why.
        signal(received, SIG_DFL)
        var only = sigset_t()
        sigemptyset(&only)
        sigaddset(&only, received)
        pthread_sigmask(SIG_UNBLOCK, &only, nil)
        raise(received)
        return 128 + received
    }

    /// The files under fixtures/sites and fixtures/pages by their path there, and each
    /// scenario page at /HOST/PATH and at PATH, where scenarios agree about that path's file.
    static func routes(_ catalog: ScenarioCatalog) throws -> [FixtureServer.Route] {
        let fixtures = catalog.scenariosFolder.deletingLastPathComponent()
        var routes: [String: URL] = [:]
        for folder in ["sites", "pages"] {
            let root = fixtures.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else { continue }
            for case let file as URL in walker where (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                let relative = file.path.dropFirst(root.path.count)
                routes["/" + folder + relative] = file
            }
        }
        var byPath: [String: Set<URL>] = [:]
        for file in catalog.allFiles() {
            guard let scenario = try? catalog.scenario(at: file) else { continue }
            for (address, page) in scenario.pages {
                guard let url = URL(string: address), let host = url.host else { continue }
                let path = url.path.isEmpty ? "/" : url.path
                byPath["/" + host + path, default: []].insert(page.standardizedFileURL)
                if path != "/" { byPath[path, default: []].insert(page.standardizedFileURL) }
            }
        }
        for (path, files) in byPath where files.count == 1 && routes[path] == nil {
            routes[path] = files.first
        }
        return routes.keys.sorted().map { FixtureServer.Route(path: $0, file: routes[$0]!) }
    }
}
