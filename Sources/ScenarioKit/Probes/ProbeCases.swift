import Foundation
import StrictJSON

/// A fidelity case file: fixtures (a page and JavaScript expressions to evaluate on it), as
/// `fixtures/fidelity/record.py` records them in WebKit and `adv-harness probe` runs them here.
/// The format is described in `fixtures/fidelity/README.md`.
public struct ProbeCaseFile: Sendable {
    /// One page and its probes.
    public struct Fixture: Sendable {
        public let name: String
        public let html: String
        /// JavaScript expressions, evaluated in order in the page's main world, each after a task.
        public let probes: [String]
        public let viewport: (width: Int, height: Int)?
        public let userCSS: String?
        /// `author` or `user`: the cascade level `userCSS` is injected at.
        public let userLevel: String?
        /// Files served beside the page (`style.css` → its text).
        public let resources: [String: String]
        /// An https address the page is loaded as instead of the recorder's scheme.
        public let url: String?
        /// Probes where the harness knowingly differs from WebKit: index → (the harness's value, why).
        public let differences: [Int: (adv: JSONValue, why: String)]
        /// False for fixtures whose expectations come from the spec (the recorder skips them).
        public let recorded: Bool
        /// Where the probes run: the page's main world, or an isolated world (what a content
        /// script sees).
        public let world: World
        /// A script run at document start in the isolated world, as an extension's
        /// document_start content script (whatever `world` is).
        public let contentScript: String?

        public enum World: String, Sendable { case main, isolated }
    }

    /// The part's name (the file's `part`).
    public let part: String
    /// Markup put before every fixture's.
    public let prelude: String
    public let fixtures: [Fixture]

    /// Reads and checks a case file: strict JSON, every key known, every value of its type.
    /// - Throws: ``JSONInputError`` naming the file, the line and column and the JSON path.
    public static func load(_ file: URL, named name: String? = nil) throws -> ProbeCaseFile {
        let shown = name ?? file.path
        let (root, bytes) = try ProbeJSON.read(file, shown: shown)
        do { return try ProbeCaseFile(root) } catch let error as JSONInputError { throw ProbeJSON.located(error, in: bytes, shown: shown) }
    }

    init(_ root: JSONValue) throws {
        let top = try ProbeJSON.object(root, "", allowed: ["part", "prelude", "fixtures", "description"])
        part = try ProbeJSON.string(top["part"], "part")
        prelude = try top["prelude"].map { try ProbeJSON.string($0, "prelude") } ?? ""
        guard case let .array(list)? = top["fixtures"] else { throw ProbeJSON.fail("fixtures", "must be an array of fixtures") }
        var names = Set<String>()
        fixtures = try list.enumerated().map { index, value in
            let path = "fixtures[\(index)]"
            let fixture = try Fixture(value, path: path)
            guard names.insert(fixture.name).inserted else {
                throw ProbeJSON.fail(path + ".name", "'\(fixture.name)' names an earlier fixture too")
            }
            return fixture
        }
    }
}

extension ProbeCaseFile.Fixture {
    static let keys: Set<String> = ["name", "html", "probes", "viewport", "userCSS", "userLevel", "resources", "url", "differences", "recorder", "world", "contentScript"]

    init(_ value: JSONValue, path: String) throws {
        let object = try ProbeJSON.object(value, path, allowed: Self.keys)
        name = try ProbeJSON.string(object["name"], path + ".name")
        html = try ProbeJSON.string(object["html"], path + ".html")
        guard case let .array(list)? = object["probes"] else { throw ProbeJSON.fail(path + ".probes", "must be an array of JavaScript expressions") }
        probes = try list.enumerated().map { try ProbeJSON.string($0.element, path + ".probes[\($0.offset)]") }
        if let size = object["viewport"] {
            guard case let .array(pair) = size, pair.count == 2,
                  case let .number(width) = pair[0], case let .number(height) = pair[1],
                  width == width.rounded(), height == height.rounded(), (1...10_000).contains(width), (1...10_000).contains(height)
            else { throw ProbeJSON.fail(path + ".viewport", "must be [width, height], whole numbers of CSS pixels from 1 to 10000") }
            viewport = (Int(width), Int(height))
        } else {
            viewport = nil
        }
        userCSS = try object["userCSS"].map { try ProbeJSON.string($0, path + ".userCSS") }
        userLevel = try object["userLevel"].map { try ProbeJSON.string($0, path + ".userLevel") }
        if let level = userLevel, level != "author", level != "user" {
            throw ProbeJSON.fail(path + ".userLevel", "must be 'author' or 'user', got '\(level)'")
        }
        var files: [String: String] = [:]
        if let value = object["resources"] {
            for (file, text) in try ProbeJSON.object(value, path + ".resources") {
                files[file] = try ProbeJSON.string(text, path + ".resources." + file)
            }
        }
        resources = files
        let worldName = try object["world"].map { try ProbeJSON.string($0, path + ".world") } ?? "main"
        guard let world = World(rawValue: worldName) else {
            throw ProbeJSON.fail(path + ".world", "must be 'main' or 'isolated', got '\(worldName)'")
        }
        self.world = world
        contentScript = try object["contentScript"].map { try ProbeJSON.string($0, path + ".contentScript") }
        url = try object["url"].map { try ProbeJSON.string($0, path + ".url") }
        if let address = url, !(address.hasPrefix("https://") || address.hasPrefix("http://")) {
            throw ProbeJSON.fail(path + ".url", "must be an http(s) address, got '\(address)'")
        }
        var known: [Int: (adv: JSONValue, why: String)] = [:]
        if let value = object["differences"] {
            for (key, entry) in try ProbeJSON.object(value, path + ".differences") {
                let at = path + ".differences." + key
                guard let index = Int(key), probes.indices.contains(index) else {
                    throw ProbeJSON.fail(at, "must be the index of one of the fixture's \(probes.count) probes")
                }
                let difference = try ProbeJSON.object(entry, at, allowed: ["adv", "why"])
                guard let adv = difference["adv"] else { throw ProbeJSON.fail(at + ".adv", "is missing: the harness's value") }
                known[index] = (adv, try ProbeJSON.string(difference["why"], at + ".why"))
            }
        }
        differences = known
        if let value = object["recorder"] {
            guard case let .bool(flag) = value else { throw ProbeJSON.fail(path + ".recorder", "must be true or false") }
            recorded = flag
        } else {
            recorded = true
        }
    }
}

/// What WebKit returned for a case file (`record.py`'s output): each fixture's probe values.
public struct ProbeExpectations: Sendable {
    /// The engine that recorded them (`WebKitGTK 2.50.1`).
    public let engine: String
    public let results: [String: [JSONValue]]

    /// - Throws: ``JSONInputError`` naming the file and position.
    public static func load(_ file: URL, named name: String? = nil) throws -> ProbeExpectations {
        let shown = name ?? file.path
        let (root, bytes) = try ProbeJSON.read(file, shown: shown)
        do {
            let top = try ProbeJSON.object(root, "", allowed: ["engine", "results"])
            let engine = try ProbeJSON.string(top["engine"], "engine")
            var results: [String: [JSONValue]] = [:]
            for (fixture, value) in try ProbeJSON.object(top["results"] ?? .null, "results") {
                guard case let .array(values) = value else { throw ProbeJSON.fail("results." + fixture, "must be an array of probe values") }
                results[fixture] = values
            }
            return ProbeExpectations(engine: engine, results: results)
        } catch let error as JSONInputError {
            throw ProbeJSON.located(error, in: bytes, shown: shown)
        }
    }
}

/// The strict readers the case and expectation files share.
enum ProbeJSON {
    static func read(_ file: URL, shown: String) throws -> (JSONValue, [UInt8]) {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw JSONInputError(file: shown, message: "cannot read the file")
        }
        let bytes = [UInt8](data)
        do { return (try JSONValue.parse(bytes), bytes) } catch { throw error.with(file: shown) }
    }

    /// `error`, found wrong after parsing, with the file and the line and column of its path.
    static func located(_ error: JSONInputError, in bytes: [UInt8], shown: String) -> JSONInputError {
        var error = error.with(file: shown)
        if let location = JSONLocator.locate(error.path, in: bytes) {
            error.line = location.line
            error.column = location.column
        }
        return error
    }

    static func fail(_ path: String, _ message: String) -> JSONInputError {
        JSONInputError(path: path, message: message)
    }

    static func object(_ value: JSONValue?, _ path: String, allowed: Set<String>? = nil) throws -> [String: JSONValue] {
        guard case let .object(object)? = value else { throw fail(path, "must be an object") }
        if let allowed {
            for key in object.keys.sorted() where !allowed.contains(key) {
                throw fail(path.isEmpty ? key : path + "." + key, "unknown key '\(key)' (known: \(allowed.sorted().joined(separator: ", ")))")
            }
        }
        return object
    }

    static func string(_ value: JSONValue?, _ path: String) throws -> String {
        guard case let .string(text)? = value else { throw fail(path, value == nil ? "is missing" : "must be a string") }
        return text
    }
}
