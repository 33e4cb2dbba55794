import BlockerCore
import BrowserRuntime
import Foundation
import StrictJSON
import Suggestion
import WebRuntime

extension Scenario {
    /// Keys a scenario file may have at the top level.
    static let topLevelKeys: Set<String> = [
        "description", "extension", "profile", "sitePermissions", "storage", "dynamicRules", "nativeMessages",
        "pages", "faults", "feedbackQuota", "steps", "budget", "withheldPermissions", "nativeHosts",
        "unloadIdleBackground", "testAPI", "permissionPrompt", "responseHeaders",
    ]

    /// Reads and validates a scenario file. Nothing runs until the whole file is valid.
    /// - Parameters:
    ///   - file: the scenario's JSON file.
    ///   - projectRoot: the folder holding `fixtures/`; relative paths in the scenario resolve
    ///     against the scenario's folder first, then `fixtures/` here.
    ///   - defaultExtension: the extension a scenario without an `extension` key runs (nil: none).
    /// - Throws: ``ScenarioError`` naming the file, the JSON path and the reason.
    public static func load(_ file: URL, projectRoot: URL, defaultExtension: URL? = nil) throws -> Scenario {
        let path = file.path
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ScenarioError(file: path, path: "", reason: "cannot read the file")
        }
        // Strict JSON (StrictJSON): trailing commas, repeated keys, a byte-order mark, invalid UTF-8
        // and NaN are refused with their line and column.
        let bytes = [UInt8](data)
        let root: JSONValue
        do { root = try JSONValue.parse(bytes) } catch {
            throw ScenarioError(file: path, path: error.path, reason: "not valid JSON: \(error.message)", line: error.line, column: error.column)
        }
        var reader = ScenarioReader(file: file, projectRoot: projectRoot, defaultExtension: defaultExtension)
        do {
            return try reader.scenario(root)
        } catch var error as ScenarioError where error.line == nil {
            // A value found wrong after parsing is still named by line and column.
            if let location = JSONLocator.locate(error.path, in: bytes) {
                error.line = location.line
                error.column = location.column
            }
            throw error
        }
    }
}

/// Reads scenario JSON with paths for every error.
struct ScenarioReader {
    let file: URL
    let projectRoot: URL
    let defaultExtension: URL?

    func fail(_ path: String, _ reason: String) -> ScenarioError {
        ScenarioError(file: file.path, path: path, reason: reason)
    }

    func object(_ value: JSONValue?, _ path: String, allowed: Set<String>? = nil) throws -> [String: JSONValue] {
        guard case let .object(object)? = value else { throw fail(path, "must be an object") }
        if let allowed {
            for key in object.keys.sorted() where !allowed.contains(key) {
                let hint = Suggestion.hint(for: key, in: allowed)
                throw fail(path.isEmpty ? key : "\(path).\(key)", "unknown key '\(key)'\(hint)")
            }
        }
        return object
    }

    func string(_ value: JSONValue?, _ path: String) throws -> String {
        guard case let .string(text)? = value else { throw fail(path, "must be a string") }
        return text
    }

    func number(_ value: JSONValue?, _ path: String) throws -> Double {
        guard case let .number(number)? = value else { throw fail(path, "must be a number") }
        return number
    }

    /// The largest virtual time a scenario may name, in milliseconds (about 31 years): far past
    /// any real scenario, and small enough that sums of times stay exact in a Double and in the
    /// event loop's integer microseconds.
    static let maxMilliseconds = 1e12

    func milliseconds(_ value: JSONValue?, _ path: String) throws -> VirtualTime {
        let ms = try number(value, path)
        guard ms.isFinite, ms >= 0, ms <= Self.maxMilliseconds else {
            throw fail(path, "must be a number of milliseconds from 0 to 10^12, got \(shown(ms))")
        }
        return .milliseconds(ms)
    }

    /// The permissions `folder`'s manifest asks for.
    /// - Throws: ``ScenarioError`` at `extension` when the manifest or a static ruleset it names
    ///   is not valid: bad input, found before anything runs.
    func manifestPermissions(of folder: URL, profile: Browser.Profile) throws -> Set<String> {
        do {
            let bundle = try ExtensionBundle(folder: folder, profile: profile)
            try bundle.validateRulesets()
            return bundle.manifest.permissions
        } catch {
            throw fail("extension", "\(error)")
        }
    }

    /// A number as the file wrote it, near enough: whole numbers without a fraction.
    func shown(_ number: Double) -> String {
        number.isFinite && number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }

    /// A whole number in `range` (counts, indices): never converted unchecked, which would trap.
    func integer(_ value: JSONValue?, _ path: String, in range: ClosedRange<Int>) throws -> Int {
        let number = try number(value, path)
        guard number.isFinite, number.rounded() == number, number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
            throw fail(path, "must be a whole number from \(range.lowerBound) to \(range.upperBound), got \(shown(number))")
        }
        return Int(number)
    }

    func bool(_ value: JSONValue?, _ path: String, default fallback: Bool) throws -> Bool {
        guard let value else { return fallback }
        guard case let .bool(flag) = value else { throw fail(path, "must be true or false") }
        return flag
    }

    /// Canonical JSON text (sorted keys) of a value.
    func json(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    /// A file named in the scenario: the scenario's folder first, then fixtures/.
    func file(_ value: JSONValue?, _ path: String, directory: Bool = false) throws -> URL {
        let name = try string(value, path)
        let candidates = name.hasPrefix("/") ? [URL(fileURLWithPath: name)] : [
            file.deletingLastPathComponent().appendingPathComponent(name),
            projectRoot.appendingPathComponent("fixtures").appendingPathComponent(name),
            projectRoot.appendingPathComponent(name),
        ]
        for candidate in candidates {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), isDirectory.boolValue == directory {
                return candidate.standardizedFileURL
            }
        }
        throw fail(path, "\(directory ? "folder" : "file") '\(name)' not found beside the scenario or under fixtures/")
    }

    mutating func scenario(_ root: JSONValue) throws -> Scenario {
        let top = try object(root, "", allowed: Scenario.topLevelKeys)
        let description = try top["description"].map { try string($0, "description") } ?? ""
        var extensionFolder = defaultExtension
        if let value = top["extension"] {
            if case .null = value { extensionFolder = nil } else { extensionFolder = try file(value, "extension", directory: true) }
        }
        var profile = Browser.Profile.safari
        if let value = top["profile"] {
            let text = try string(value, "profile")
            guard let parsed = Browser.Profile(rawValue: text) else { throw fail("profile", "'\(text)' must be safari or chromium") }
            profile = parsed
        }
        // The extension's manifest is input too: a broken one is refused here, before anything
        // runs (exit 2), not found by the first step that needs the extension. It is read as
        // the scenario's browser reads it (Chrome refuses some `_locales` that Safari takes).
        let asked = try extensionFolder.map { try manifestPermissions(of: $0, profile: profile) } ?? []
        var withheld: Set<String> = []
        if let value = top["withheldPermissions"] {
            guard case let .array(list) = value else { throw fail("withheldPermissions", "must be an array of permission names") }
            // Withholding is checked against what the extension asks for: a name it does not ask
            // for (a typo, a permission of another extension) would withhold nothing.
            for (index, item) in list.enumerated() {
                let name = try string(item, "withheldPermissions[\(index)]")
                guard asked.contains(name) else {
                    throw fail("withheldPermissions[\(index)]", "the extension does not ask for '\(name)'\(Suggestion.hint(for: name, in: asked))")
                }
                withheld.insert(name)
            }
        }
        var permissions: [(String, SitePermission)] = []
        if let value = top["sitePermissions"] {
            for (host, state) in try object(value, "sitePermissions").sorted(by: { $0.key < $1.key }) {
                let text = try string(state, "sitePermissions.\(host)")
                guard let permission = SitePermission(rawValue: text) else {
                    throw fail("sitePermissions.\(host)", "'\(text)' must be always, once, denied or not-asked")
                }
                permissions.append((host, permission))
            }
        }
        var local: String?
        if let value = top["storage"] {
            let storage = try object(value, "storage", allowed: ["local", "localFiles"])
            var area: [String: JSONValue] = [:]
            if let inline = storage["local"] { area = try object(inline, "storage.local") }
            // localFiles: key -> JSON file whose content becomes that key's value (a fixture the
            // Swift tests read too, so both sides are proven to agree on one document).
            if let files = storage["localFiles"] {
                for (key, name) in try object(files, "storage.localFiles") {
                    let path = "storage.localFiles.\(key)"
                    if area[key] != nil { throw fail(path, "'\(key)' is also given in storage.local") }
                    let url = try file(name, path)
                    guard let data = FileManager.default.contents(atPath: url.path) else {
                        throw fail(path, "cannot read '\(url.path)'")
                    }
                    do { area[key] = try JSONValue.parse(data) } catch {
                        // The file's own position, so the fix is one open away.
                        throw fail(path, "'\(url.lastPathComponent)' is not valid JSON: \(error.with(file: url.path))")
                    }
                }
            }
            if storage["local"] != nil || storage["localFiles"] != nil { local = json(.object(area)) }
        }
        var rules: String?
        if let value = top["dynamicRules"] {
            guard case .array = value else { throw fail("dynamicRules", "must be an array of DNR rules") }
            rules = json(value)
            do {
                let decoded = try DNRRuleset.decodeRules(from: Data((rules ?? "[]").utf8), file: file.path)
                if let error = DNRRuleValidator.validate(ruleset: decoded, source: .dynamic).first {
                    throw fail("dynamicRules" + (error.ruleIndex.map { "[\($0)]" } ?? ""), error.message)
                }
            } catch let error as InputError {
                throw fail("dynamicRules" + (error.position.map { ".\($0)" } ?? ""), error.message)
            }
        }
        var native: [String: [String]] = [:]
        if let value = top["nativeMessages"] {
            for (app, responses) in try object(value, "nativeMessages") {
                guard case let .array(list) = responses, !list.isEmpty else { throw fail("nativeMessages.\(app)", "must be a non-empty array of responses") }
                native[app] = list.map(json)
            }
        }
        var hosts: [String: (kind: String, options: [String: String])] = [:]
        if let value = top["nativeHosts"] {
            for (app, spec) in try object(value, "nativeHosts") {
                let path = "nativeHosts.\(app)"
                let fields = try object(spec, path)
                let kind = try string(fields["kind"], path + ".kind")
                guard NativeHosts.kinds.contains(kind) else {
                    throw fail(path + ".kind", "'\(kind)' is not a registered native host (known: \(NativeHosts.kinds.joined(separator: ", ")))")
                }
                guard native[app] == nil else { throw fail(path, "'\(app)' also has scripted nativeMessages; give one or the other") }
                var options: [String: String] = [:]
                for (key, option) in fields where key != "kind" {
                    options[key] = key.hasSuffix("File") ? try file(option, "\(path).\(key)").path : try string(option, "\(path).\(key)")
                }
                hosts[app] = (kind, options)
            }
        }
        var pages: [String: URL] = [:]
        if let value = top["pages"] {
            for (url, name) in try object(value, "pages") {
                guard URLComponents(string: url)?.scheme != nil else { throw fail("pages.\(url)", "'\(url)' is not an absolute URL") }
                let page = try file(name, "pages.\(url)")
                // Everything the network model serves is text (pages, scripts, style sheets, fetch
                // bodies); a file that is not would be served as nothing, so refuse it here.
                guard let data = FileManager.default.contents(atPath: page.path) else {
                    throw fail("pages.\(url)", "cannot read '\(page.path)'")
                }
                guard !data.contains(0), String(data: data, encoding: .utf8) != nil else {
                    throw fail("pages.\(url)", "'\(page.path)' is not UTF-8 text; pages, scripts, style sheets and fetch bodies must be")
                }
                pages[url] = page
            }
        }
        var responseHeaders: [String: [(name: String, value: String)]] = [:]
        if let value = top["responseHeaders"] {
            for (url, headers) in try object(value, "responseHeaders") {
                guard URLComponents(string: url)?.scheme != nil else { throw fail("responseHeaders.\(url)", "'\(url)' is not an absolute URL") }
                var list: [(name: String, value: String)] = []
                for (name, text) in try object(headers, "responseHeaders.\(url)") {
                    // A header name is an HTTP token (RFC 9110 5.6.2); a value has no line breaks.
                    guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "!#$%&'*+-.^_`|~".contains($0)) }) else {
                        throw fail("responseHeaders.\(url).\(name)", "'\(name)' is not a header name")
                    }
                    let headerValue = try string(text, "responseHeaders.\(url).\(name)")
                    guard !headerValue.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\0" }) else {
                        throw fail("responseHeaders.\(url).\(name)", "a header value cannot contain a line break")
                    }
                    list.append((name, headerValue))
                }
                responseHeaders[url] = list.sorted { $0.name.lowercased() < $1.name.lowercased() }
            }
        }
        var faults: [FaultPlan.Rule] = []
        if let value = top["faults"] {
            guard case let .array(list) = value else { throw fail("faults", "must be an array") }
            for (index, entry) in list.enumerated() {
                let path = "faults[\(index)]"
                let fields = try object(entry, path, allowed: ["method", "nth", "argumentContains", "from", "error", "delay"])
                let method = try string(fields["method"], path + ".method")
                // Only what the API surface has can fail: a typo would otherwise never fire.
                guard APISurface.methodNames.contains(method) else {
                    let hint = Suggestion.nearest(to: method, in: APISurface.methodNames).map { "did you mean '\($0)'?" }
                        ?? "name namespace.method, e.g. storage.local.set"
                    throw fail(path + ".method", "'\(method)' is no browser.* method the runtime has; \(hint)")
                }
                let rule = FaultPlan.Rule(
                    method: method,
                    nthCall: try fields["nth"].map { try integer($0, path + ".nth", in: 1...1_000_000) },
                    argumentContains: try fields["argumentContains"].map { try string($0, path + ".argumentContains") },
                    from: try fields["from"].map { try milliseconds($0, path + ".from") },
                    error: try fields["error"].map { try string($0, path + ".error") },
                    delay: try fields["delay"].map { try milliseconds($0, path + ".delay") } ?? .zero)
                guard rule.error != nil || rule.delay > .zero else { throw fail(path, "needs 'error' or 'delay'") }
                faults.append(rule)
            }
        }
        var quota: (Int, Double)?
        if let value = top["feedbackQuota"] {
            let fields = try object(value, "feedbackQuota", allowed: ["calls", "intervalMs"])
            let interval = try milliseconds(fields["intervalMs"], "feedbackQuota.intervalMs").milliseconds
            quota = (try integer(fields["calls"], "feedbackQuota.calls", in: 0...1_000_000), interval)
        }
        let unloadIdle = try bool(top["unloadIdleBackground"], "unloadIdleBackground", default: false)
        let testAPI = try bool(top["testAPI"], "testAPI", default: false)
        var acceptsPermissionPrompts = false
        if let value = top["permissionPrompt"] {
            let answer = try string(value, "permissionPrompt")
            guard answer == "accept" || answer == "decline" else { throw fail("permissionPrompt", "'\(answer)' must be accept or decline") }
            acceptsPermissionPrompts = answer == "accept"
        }
        var virtualBudget = VirtualTime.seconds(600)
        var wallBudget = 30.0
        if let value = top["budget"] {
            let fields = try object(value, "budget", allowed: ["virtualMs", "wallMs"])
            if let ms = fields["virtualMs"] { virtualBudget = try milliseconds(ms, "budget.virtualMs") }
            if let ms = fields["wallMs"] {
                let wall = try number(ms, "budget.wallMs")
                // A wall budget of 0 or less would fail every scenario before its first step.
                guard wall.isFinite, wall > 0, wall <= 3_600_000 else {
                    throw fail("budget.wallMs", "must be a number of milliseconds above 0 and at most 3600000 (an hour), got \(shown(wall))")
                }
                wallBudget = wall / 1000
            }
        }
        guard case let .array(stepList)? = top["steps"] else { throw fail("steps", "is required and must be an array") }
        var steps: [Scenario.Step] = []
        var clock = VirtualTime.zero
        var tabs: Set<String> = []
        for (index, entry) in stepList.enumerated() {
            let step = try self.step(entry, "steps[\(index)]", after: clock, tabs: &tabs)
            guard step.at >= clock else { throw fail("steps[\(index)].at", "\(step.at) is earlier than the step before it (\(clock)); steps run in order") }
            clock = step.at
            steps.append(step)
        }
        let name = file.deletingPathExtension().lastPathComponent
        return Scenario(
            file: file, suite: file.deletingLastPathComponent().lastPathComponent, name: name, description: description,
            extensionFolder: extensionFolder, withheldPermissions: withheld, profile: profile, sitePermissions: permissions, localStorage: local,
            dynamicRules: rules, nativeMessages: native, nativeHosts: hosts, pages: pages, responseHeaders: responseHeaders, faults: faults, feedbackQuota: quota,
            unloadsIdleBackground: unloadIdle, testAPI: testAPI, acceptsPermissionPrompts: acceptsPermissionPrompts, steps: steps, virtualBudget: virtualBudget, wallBudget: wallBudget)
    }
}
