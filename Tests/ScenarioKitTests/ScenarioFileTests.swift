import BrowserRuntime
import Foundation
import ScenarioKit
import TestSupport
import Testing
import WebRuntime

@Suite struct ScenarioFileTests {
    static let root = Support.fixtures.deletingLastPathComponent()

    /// Writes `json` as a scenario in a temporary folder and loads it.
    func load(_ json: String) throws -> Scenario {
        let folder = Support.scratchRoot.appendingPathComponent("adv-scenario-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("case.json")
        try Data(json.utf8).write(to: file)
        return try Support.catalog.scenario(at: file)
    }

    @Test(arguments: [
        ("{", "", "not valid JSON"),
        (#"{"steps": [], "bogus": 1}"#, "bogus", "unknown key 'bogus'"),
        (#"{"stepz": []}"#, "stepz", "did you mean 'steps'?"),
        (#"{}"#, "steps", "is required"),
        (#"{"profile": "firefox", "steps": []}"#, "profile", "'firefox' must be safari or chromium"),
        (#"{"sitePermissions": {"a.example": "sometimes"}, "steps": []}"#, "sitePermissions.a.example", "must be always, once, denied or not-asked"),
        (#"{"pages": {"https://a.example/": "sites/missing.html"}, "steps": []}"#, "pages.https://a.example/", "file 'sites/missing.html' not found"),
        (#"{"pages": {"a.example": "sites/plain.html"}, "steps": []}"#, "pages.a.example", "is not an absolute URL"),
        (#"{"extension": "extensions/nope", "steps": []}"#, "extension", "folder 'extensions/nope' not found"),
        (#"{"faults": [{"method": "set", "error": "x"}], "steps": []}"#, "faults[0].method", "name namespace.method"),
        (#"{"faults": [{"method": "storage.local.set"}], "steps": []}"#, "faults[0]", "needs 'error' or 'delay'"),
        (#"{"dynamicRules": [{"id": 0, "action": {"type": "block"}, "condition": {}}], "steps": []}"#, "dynamicRules[0]", "id"),
        (#"{"steps": [{"at": 5}]}"#, "steps[0]", "needs one action"),
        (#"{"steps": [{"open": "https://a.example/", "close": "main"}]}"#, "steps[0]", "has several actions"),
        (#"{"steps": [{"navigate": "https://a.example/"}]}"#, "steps[0].tab", "no open tab named 'main'"),
        (#"{"steps": [{"open": "https://a.example/"}, {"back": "second"}]}"#, "steps[1].back", "no open tab named 'second'"),
        (#"{"steps": [{"open": "ftp://a.example/"}]}"#, "steps[0].open", "must be an absolute http(s) URL"),
        (#"{"steps": [{"at": 100, "open": "https://a.example/"}, {"at": 50, "close": "main"}]}"#, "steps[1].at", "earlier than the step before it"),
        (#"{"steps": [{"open": "https://a.example/"}, {"script": "1", "world": "iframe"}]}"#, "steps[1].world", "must be page, content, background or popup"),
        (#"{"steps": [{"open": "https://a.example/"}, {"expect": {"js": "1"}}]}"#, "steps[1].expect.equals", "is required with 'js'"),
        (##"{"steps": [{"open": "https://a.example/"}, {"expect": {"visible": "#a", "hidden": "#b"}}]}"##, "steps[1].expect", "checks several things"),
        (#"{"steps": [{"at": -1, "open": "https://a.example/"}]}"#, "steps[0].at", "from 0 to 10^12, got -1"),
        (#"{"faults": [{"method": "storage.local.sett", "error": "x"}], "steps": []}"#, "faults[0].method", "'storage.local.sett' is no browser.* method the runtime has; did you mean 'storage.local.set'?"),
        (#"{"faults": [{"method": "nothing.like.this.at.all", "error": "x"}], "steps": []}"#, "faults[0].method", "e.g. storage.local.set"),
        (#"{"withheldPermissions": ["storge"], "steps": []}"#, "withheldPermissions[0]", "the extension does not ask for 'storge'; did you mean 'storage'?"),
        (#"{"steps": [{"open": "https://a.example/", "private": "yes"}]}"#, "steps[0].private", "must be true or false"),
        (#"{"unloadIdleBackground": 1, "steps": []}"#, "unloadIdleBackground", "must be true or false"),
        (#"{"storage": {"localFiles": {"rules": "sites/missing.json"}}, "steps": []}"#, "storage.localFiles.rules", "file 'sites/missing.json' not found"),
        (#"{"storage": {"localFiles": {"rules": "sites/shared-format.html"}}, "steps": []}"#, "storage.localFiles.rules", "'shared-format.html' is not valid JSON"),
        (#"{"storage": {"local": {"rules": 1}, "localFiles": {"rules": "rules/personal-rules-v1.json"}}, "steps": []}"#, "storage.localFiles.rules", "'rules' is also given in storage.local"),
        (#"{"nativeHosts": {"app.example": {"kind": "no-such-host"}}, "steps": []}"#, "nativeHosts.app.example.kind", "'no-such-host' is not a registered native host"),
        (#"{"steps": [{"open": "https://a.example/", "tab": "opened:1"}]}"#, "steps[0].tab", "names beginning with 'opened:' address tabs the extension opened"),
        (#"{"steps": [{"open": "extension:../secret.html"}]}"#, "steps[0].open", "must name a file of the extension"),
        (##"{"steps": [{"open": "https://a.example/"}, {"click": "#a", "tab": "opened:"}]}"##, "steps[1].tab", "no open tab named 'opened:'"),
        (#"{"responseHeaders": {"a.example": {"x": "1"}}, "steps": []}"#, "responseHeaders.a.example", "is not an absolute URL"),
        (#"{"responseHeaders": {"https://a.example/": {"bad name": "1"}}, "steps": []}"#, "responseHeaders.https://a.example/.bad name", "is not a header name"),
        (#"{"responseHeaders": {"https://a.example/": {"x": 1}}, "steps": []}"#, "responseHeaders.https://a.example/.x", "string"),
        (#"{"responseHeaders": {"https://a.example/": {"x": "a\nb"}}, "steps": []}"#, "responseHeaders.https://a.example/.x", "line break"),
        (#"{"steps": [{"open": "https://a.example/"}, {"viewport": {"width": 0, "height": 600}}]}"#, "steps[1].viewport.width", "from 1 to 10000"),
        (#"{"steps": [{"open": "https://a.example/"}, {"viewport": {"width": 600}}]}"#, "steps[1].viewport.height", "whole number of CSS px"),
        (#"{"steps": [{"open": "https://a.example/"}, {"viewport": {"width": 600, "height": 400, "depth": 1}}]}"#, "steps[1].viewport.depth", "unknown key 'depth'"),
        (#"{"steps": [{"viewport": {"width": 600, "height": 400}, "tab": "side"}]}"#, "steps[0].tab", "no open tab named 'side'"),
        (#"{"steps": [{"expect": {"nativeMessages": "app.example"}}]}"#, "steps[0].expect", "'nativeMessages' needs 'equals', 'lacks' or both"),
        (#"{"steps": [{"expect": {"nativeMessages": "app.example", "equals": {}}}]}"#, "steps[0].expect.equals", "must be an array of the messages sent"),
        (#"{"steps": [{"expect": {"nativeMessages": "app.example", "lacks": []}}]}"#, "steps[0].expect.lacks", "non-empty array of strings"),
        (#"{"steps": [{"expect": {"nativeMessages": "app.example", "lacks": [1]}}]}"#, "steps[0].expect.lacks[0]", "string"),
    ])
    func malformedScenariosNameFilePathAndReason(json: String, path: String, reason: String) {
        do {
            _ = try load(json)
            Issue.record("accepted: \(json)")
        } catch let error as ScenarioError {
            #expect(error.path == path, "\(error)")
            #expect(error.reason.contains(reason), "\(error)")
            #expect(error.file.hasSuffix("case.json"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func pathsResolveBesideTheScenarioThenFixtures() throws {
        let folder = Support.scratchRoot.appendingPathComponent("adv-scenario-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "<title>local</title>".write(to: folder.appendingPathComponent("local.html"), atomically: true, encoding: .utf8)
        let file = folder.appendingPathComponent("outside.json")
        try #"{"extension": null, "pages": {"https://a.example/": "local.html", "https://b.example/": "sites/plain.html"}, "steps": [{"open": "https://a.example/"}, {"expect": {"js": "document.title", "equals": "local"}}]}"#
            .write(to: file, atomically: true, encoding: .utf8)
        let scenario = try Support.catalog.scenario(at: file)
        #expect(scenario.pages["https://a.example/"]?.path == folder.appendingPathComponent("local.html").standardizedFileURL.path)
        #expect(scenario.pages["https://b.example/"]?.lastPathComponent == "plain.html")
        let result = ScenarioRunner.run(scenario)
        #expect(result.passed, "\(result.failures)")
        let catalog = ScenarioCatalog(projectRoot: Self.root)
        #expect(catalog.baselineURL(for: file).path == folder.appendingPathComponent("outside.trace").path)
    }

    /// The browser's back and forward buttons traverse the tab's session history, across
    /// documents and within one (a pushState entry), each as a task.
    @Test func backAndForwardStepsTraverseTheTabsHistory() throws {
        let scenario = try load("""
            {"extension": null, "pages": {"https://a.example/": "sites/plain.html", "https://a.example/two": "sites/plain.html", "https://b.example/": "sites/plain.html"}, "steps": [
              {"open": "https://a.example/"},
              {"script": "history.pushState({ n: 1 }, '', '/two')"},
              {"navigate": "https://b.example/"},
              {"after": 10, "back": "main"},
              {"after": 10, "expect": {"js": "location.href + ' ' + history.state.n + ' ' + history.length", "equals": "https://a.example/two 1 3"}},
              {"back": "main"},
              {"after": 10, "expect": {"js": "location.href + ' ' + history.state", "equals": "https://a.example/ null"}},
              {"script": "addEventListener('popstate', () => console.log('popstate ' + location.pathname)); history.pushState(null, '', '/three'); history.back()"},
              {"after": 10, "expect": {"trace": "popstate /"}},
              {"forward": "main"},
              {"after": 10, "expect": {"js": "location.href + ' ' + history.length", "equals": "https://a.example/three 2"}},
              {"expect": {"trace": "popstate /three"}}
            ]}
            """)
        let result = ScenarioRunner.run(scenario)
        #expect(result.passed, "\(result.failures)")
    }

    /// A viewport step resizes the tab's window: media queries follow it, and a `change` event
    /// reaches the page's MediaQueryList listeners.
    @Test func viewportStepResizesTheTabsPage() throws {
        let scenario = try load("""
            {"extension": null, "pages": {"https://a.example/": "sites/plain.html"}, "steps": [
              {"open": "https://a.example/"},
              {"script": "window.changes = []; matchMedia('(min-width: 760px)').addEventListener('change', (e) => changes.push(e.matches))"},
              {"expect": {"js": "innerWidth + ' ' + matchMedia('(min-width: 760px)').matches", "equals": "1280 true"}},
              {"viewport": {"width": 480, "height": 700}},
              {"after": 10, "expect": {"js": "innerWidth + 'x' + innerHeight + ' ' + matchMedia('(min-width: 760px)').matches + ' ' + changes.join()", "equals": "480x700 false false"}}
            ]}
            """)
        let result = ScenarioRunner.run(scenario)
        #expect(result.passed, "\(result.failures)")
    }

    @Test func failingExpectationsAreAllReportedAndTheRunGoesOn() throws {
        let scenario = try load("""
            {"extension": null, "pages": {"https://a.example/": "sites/plain.html"}, "steps": [
              {"open": "https://a.example/"},
              {"expect": {"js": "document.title", "equals": "Wrong"}},
              {"expect": {"hidden": "#text"}},
              {"after": 10, "script": "document.title = 'Changed'"},
              {"expect": {"js": "document.title", "equals": "Changed"}},
              {"expect": {"trace": "never logged"}},
              {"script": "undefinedFunction()"},
              {"expect": {"js": "1", "equals": 1}}
            ]}
            """)
        let result = ScenarioRunner.run(scenario)
        #expect(result.failures.count == 4, "\(result.failures)")
        #expect(result.failures[0] == "steps[1]: document.title in page is \"Plain page\", expected \"Wrong\"")
        #expect(result.failures[1] == "steps[2]: #text is visible, expected hidden")
        #expect(result.failures[2].hasPrefix("steps[5]: the trace has no line containing \"never logged\""))
        #expect(result.failures[3].hasPrefix("steps[6]: the script threw ReferenceError: Can't find variable: undefinedFunction (at scenario:steps[6]:1:18)"))
        #expect(result.virtualDuration == .milliseconds(10))
    }
}

extension ScenarioFileTests {
    /// `nativeMessages` checks what the extension sent to one application, whole and in order, as
    /// JSON values (not trace text), and leaves out what the scenario's own `nativeMessage` step
    /// (the app acting by itself) sent.
    @Test func nativeMessagesExpectationsSeeWholeMessagesTheExtensionSent() throws {
        let scenario = try load("""
            {"nativeMessages": {"app.example": [{"ok": true}]}, "steps": [
              {"script": "browser.runtime.sendNativeMessage('app.example', {type: 'probe', padding: 'x'.repeat(600), tail: 'tail-marker'})", "world": "background"},
              {"after": 10, "nativeMessage": {"application": "app.example", "message": {"type": "by-the-app"}}},
              {"expect": {"nativeMessages": "app.example", "equals": [{"type": "probe", "padding": "\(String(repeating: "x", count: 600))", "tail": "tail-marker"}]}},
              {"expect": {"nativeMessages": "app.example", "lacks": ["by-the-app", "no-such-text"]}},
              {"expect": {"nativeMessages": "app.example", "lacks": ["tail-marker"]}},
              {"expect": {"nativeMessages": "other.example", "equals": [{"type": "probe"}]}}
            ]}
            """)
        let result = ScenarioRunner.run(scenario)
        #expect(result.failures.count == 2, "\(result.failures)")
        #expect(result.failures.first?.hasPrefix("steps[4]: native messages to app.example: message 1 contains \"tail-marker\": {") == true, "\(result.failures)")
        #expect(result.failures.last == "steps[5]: native messages to other.example: the messages are [], expected [{\"type\":\"probe\"}]", "\(result.failures)")
    }

    @Test func stepsAddressTheTabsAnExtensionOpenedAndItsPages() throws {
        let scenario = try load("""
            {"extension": "extensions/extension-pages", "pages": {"https://a.example/": "sites/plain.html"}, "steps": [
              {"open": "https://a.example/"},
              {"script": "chrome.tabs.create({ url: 'manager.html' }); chrome.tabs.create({ url: 'https://a.example/', active: false })", "world": "background"},
              {"after": 10, "expect": {"js": "document.title", "tab": "opened:manager.html", "equals": "Manager"}},
              {"expect": {"js": "document.title", "tab": "opened:2", "equals": "Plain page"}},
              {"expect": {"js": "document.title", "tab": "opened:https://a.example/", "equals": "Plain page"}},
              {"close": "opened:1"},
              {"after": 10, "expect": {"js": "1", "tab": "opened:manager.html", "equals": 1}},
              {"open": "extension:report.html", "tab": "report"},
              {"after": 10, "expect": {"js": "document.getElementById('window').textContent", "tab": "report", "equals": "normal 1"}},
              {"expect": {"js": "chrome.tabs.query({})", "tab": "report", "equals": []}}
            ]}
            """)
        let result = ScenarioRunner.run(scenario)
        #expect(result.failures.count == 2, "\(result.failures)")
        #expect(result.failures.first == "steps[6]: no open tab the extension opened matches 'manager.html' (open ones: 2: https://a.example/)")
        #expect(result.failures.last?.hasPrefix("steps[9]: chrome.tabs.query({}) in page gives a promise, which has no value at this instant") == true)
    }
}

@Suite struct SuiteMachineryTests {
    @Test func shardsPartitionTheScenarios() {
        let files = (1...10).map { URL(fileURLWithPath: "/s/suite/\($0).json") }
        let shards = (1...3).map { SuiteRun.shard(files, index: $0, count: 3) }
        #expect(shards.map(\.count) == [4, 3, 3])
        #expect(Set(shards.flatMap { $0 }.map(\.path)) == Set(files.map(\.path)))
        #expect(SuiteRun.shard(files, index: 2, count: 3) == SuiteRun.shard(files.reversed(), index: 2, count: 3))
    }

    @Test func unifiedDiffShowsHunksWithContext() {
        // Changes 14 unchanged lines apart give two hunks (GNU diff merges gaps of up to
        // 2 * context lines, which the next test relies on).
        let old = (1...20).map { "line \($0)" }.joined(separator: "\n") + "\n"
        var lines = (1...20).map { "line \($0)" }
        lines[5] = "line six changed"
        lines.append("line 21")
        let diff = LineDiff.unified(old: old, new: lines.joined(separator: "\n") + "\n", oldName: "a", newName: "b")
        #expect(diff == """
            --- a
            +++ b
            @@ -3,7 +3,7 @@
             line 3
             line 4
             line 5
            -line 6
            +line six changed
             line 7
             line 8
             line 9
            @@ -18,3 +18,4 @@
             line 18
             line 19
             line 20
            +line 21

            """)
        let close = LineDiff.unified(old: "a\nb\nc\nd\ne\nf\ng\nh\n", new: "A\nb\nc\nd\ne\nf\ng\nH\n", oldName: "a", newName: "b")
        #expect(close.components(separatedBy: "@@ ").count == 2, "a gap of 6 lines stays one hunk")
        #expect(LineDiff.unified(old: "same\n", new: "same\n", oldName: "a", newName: "b").isEmpty)
    }

    @Test func junitReportEscapesAndCounts() {
        let xml = JUnitReport.xml([
            JUnitReport.Case(suite: "s", name: "ok", seconds: 0.01, failure: nil),
            JUnitReport.Case(suite: "s", name: "bad <one>", seconds: 0.02, failure: "expected \"a\" & got b\nmore"),
        ])
        #expect(xml.contains(#"<testsuites name="adv-harness" tests="2" failures="1">"#))
        #expect(xml.contains(#"<testcase classname="s" name="bad &lt;one&gt;" time="0.020">"#))
        #expect(xml.contains(#"<failure message="expected &quot;a&quot; &amp; got b">"#))
    }
}

/// Scenario files are strict JSON, and every error names its line and column.
@Suite struct ScenarioStrictJSONTests {
    func error(_ json: String) -> ScenarioError? {
        let folder = Support.scratchRoot.appendingPathComponent("adv-strict-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("case.json")
        try? Data(json.utf8).write(to: file)
        do { _ = try Support.catalog.scenario(at: file); return nil } catch { return error as? ScenarioError }
    }

    @Test(arguments: [
        ("{\"steps\": [],}", 1, 13, "not valid JSON"),
        ("{\"steps\": [], \"steps\": []}", 1, 15, "not valid JSON"),
        ("{\n  \"steps\": [\n    {\"at\": NaN}\n  ]\n}", 3, 12, "not valid JSON"),
        ("\u{FEFF}{\"steps\": []}", 1, 1, "not valid JSON"),
    ])
    func malformedJSONIsRefusedWithLineAndColumn(json: String, line: Int, column: Int, reason: String) {
        let error = error(json)
        #expect(error?.reason.contains(reason) == true, "\(String(describing: error))")
        #expect(error?.line == line && error?.column == column, "\(String(describing: error))")
        #expect(error?.description.contains("case.json:\(line):\(column): ") == true)
    }

    @Test func aValueFoundWrongAfterParsingIsLocated() {
        let error = error("{\n  \"steps\": [\n    {\"open\": \"https://a.example/\"},\n    {\"at\": -1, \"open\": \"https://a.example/\"}\n  ]\n}")
        #expect(error?.path == "steps[1].at")
        #expect(error?.line == 4, "\(String(describing: error))")
        #expect(error?.description.contains("case.json:4:") == true, "\(String(describing: error))")
    }
}

/// Every time, count and index is finite, whole where it must be, and in range; sums cannot wrap.
@Suite struct ScenarioNumberTests {
    static let open = #"{"open": "https://a.example/"}"#

    @Test(arguments: [
        (#"{"steps": [{"at": 1e16, "open": "https://a.example/"}]}"#, "steps[0].at", "from 0 to 10^12"),
        (#"{"steps": [{"at": 1e300, "open": "https://a.example/"}]}"#, "steps[0].at", "from 0 to 10^12"),
        (#"{"steps": [{"at": 900000000000, "open": "https://a.example/"}, {"after": 900000000000, "open": "https://a.example/"}]}"#, "steps[1].after", "past 10^12 ms"),
        (#"{"budget": {"virtualMs": 1e300}, "steps": []}"#, "budget.virtualMs", "from 0 to 10^12"),
        (#"{"budget": {"wallMs": 0}, "steps": []}"#, "budget.wallMs", "above 0"),
        (#"{"budget": {"wallMs": -5}, "steps": []}"#, "budget.wallMs", "above 0"),
        (#"{"faults": [{"method": "storage.local.set", "nth": 1e16, "error": "x"}], "steps": []}"#, "faults[0].nth", "whole number from 1 to 1000000"),
        (#"{"faults": [{"method": "storage.local.set", "nth": 0, "error": "x"}], "steps": []}"#, "faults[0].nth", "whole number from 1"),
        (#"{"faults": [{"method": "storage.local.set", "nth": 1.5, "error": "x"}], "steps": []}"#, "faults[0].nth", "whole number"),
        (#"{"faults": [{"method": "storage.local.set", "delay": 1e300}], "steps": []}"#, "faults[0].delay", "from 0 to 10^12"),
        (#"{"faults": [{"method": "storage.local.set", "from": 1e16, "error": "x"}], "steps": []}"#, "faults[0].from", "from 0 to 10^12"),
        (#"{"feedbackQuota": {"calls": 1e300, "intervalMs": 1000}, "steps": []}"#, "feedbackQuota.calls", "whole number from 0 to 1000000"),
        (#"{"feedbackQuota": {"calls": 5, "intervalMs": -1}, "steps": []}"#, "feedbackQuota.intervalMs", "from 0 to 10^12"),
    ])
    func outOfRangeNumbersAreRefusedWithTheirPath(json: String, path: String, reason: String) {
        let folder = Support.scratchRoot.appendingPathComponent("adv-numbers-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("case.json")
        try? Data(json.utf8).write(to: file)
        do {
            _ = try Support.catalog.scenario(at: file)
            Issue.record("accepted: \(json)")
        } catch let error as ScenarioError {
            #expect(error.path == path, "\(error)")
            #expect(error.reason.contains(reason), "\(error)")
            #expect(error.line != nil, "\(error)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func virtualTimesSaturateInsteadOfTrappingOrWrapping() {
        #expect(VirtualTime.milliseconds(1e300) == .distantFuture)
        #expect(VirtualTime.milliseconds(.nan) == .zero)
        #expect(VirtualTime.distantFuture + .milliseconds(1) == .distantFuture)
        #expect(VirtualTime.milliseconds(5) + .milliseconds(7) == .milliseconds(12))
        #expect(VirtualTime.milliseconds(5) - .milliseconds(7) == VirtualTime(microseconds: -2000))
    }
}

/// An extension whose manifest is broken is bad input of the scenario: refused before anything runs.
@Suite struct ScenarioExtensionTests {
    @Test func aPageMappedToAFileThatIsNotTextNamesTheFile() throws {
        let folder = Support.scratchRoot.appendingPathComponent("adv-binary-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF]).write(to: folder.appendingPathComponent("banner.png"))
        let file = folder.appendingPathComponent("case.json")
        try Data(#"{"extension": null, "pages": {"https://a.example/banner.png": "banner.png"}, "steps": []}"#.utf8).write(to: file)
        do {
            _ = try Support.catalog.scenario(at: file)
            Issue.record("a binary page was accepted")
        } catch let error as ScenarioError {
            #expect(error.path == "pages.https://a.example/banner.png")
            #expect(error.reason.contains("banner.png' is not UTF-8 text"), "\(error)")
            #expect(error.line == 1)
        }
    }

    @Test func aBadStaticRuleIsRefusedWhenTheScenarioIsRead() throws {
        let folder = Support.scratchRoot.appendingPathComponent("adv-badrule-\(UUID().uuidString)")
        let ext = folder.appendingPathComponent("ext")
        try FileManager.default.createDirectory(at: ext, withIntermediateDirectories: true)
        let manifest = #"{"manifest_version": 3, "name": "X", "version": "1", "permissions": ["declarativeNetRequest"], "declarative_net_request": {"rule_resources": [{"id": "r", "enabled": true, "path": "rules.json"}]}}"#
        try Data(manifest.utf8).write(to: ext.appendingPathComponent("manifest.json"))
        try Data(#"[{"id": 1, "action": {"type": "block"}, "condition": {"urlFilter": ""}}]"#.utf8).write(to: ext.appendingPathComponent("rules.json"))
        let file = folder.appendingPathComponent("case.json")
        try Data(#"{"extension": "ext", "steps": []}"#.utf8).write(to: file)
        do {
            _ = try Support.catalog.scenario(at: file)
            Issue.record("a bad static rule was accepted")
        } catch let error as ScenarioError {
            #expect(error.path == "extension")
            #expect(error.reason.contains("rules.json"), "\(error)")
            #expect(error.reason.contains("urlFilter"), "\(error)")
        }
    }

    @Test func aBrokenManifestIsRefusedWhenTheScenarioIsRead() throws {
        let folder = Support.scratchRoot.appendingPathComponent("adv-broken-\(UUID().uuidString)")
        let ext = folder.appendingPathComponent("ext")
        try FileManager.default.createDirectory(at: ext, withIntermediateDirectories: true)
        try Data(#"{"manifest_version": 3, "name": "X", "version": "1",}"#.utf8).write(to: ext.appendingPathComponent("manifest.json"))
        let file = folder.appendingPathComponent("case.json")
        try Data(#"{"extension": "ext", "steps": []}"#.utf8).write(to: file)
        do {
            _ = try Support.catalog.scenario(at: file)
            Issue.record("a broken manifest was accepted")
        } catch let error as ScenarioError {
            #expect(error.path == "extension")
            #expect(error.reason.contains("manifest.json:1:52: not valid JSON: trailing comma"), "\(error)")
        }
    }
}

/// The harness's own files are written whole or not at all, and never in place of a folder.
@Suite struct BaselineWriteTests {
    @Test func aFolderWhereABaselineGoesIsRefusedAndLeftAlone() throws {
        let folder = Support.scratchRoot.appendingPathComponent("adv-baseline-\(UUID().uuidString)")
        let target = folder.appendingPathComponent("name.trace")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: target.appendingPathComponent("notes.txt"))
        #expect(throws: OutputError.self) { try Baseline.writeAtomically("trace\n", to: target) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path) == ["notes.txt"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["name.trace"], "no temporary file left behind")
    }

    @Test func aFileIsReplacedWhole() throws {
        let folder = Support.scratchRoot.appendingPathComponent("adv-baseline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let target = folder.appendingPathComponent("name.trace")
        try Baseline.writeAtomically("old\n", to: target)
        try Baseline.writeAtomically("new\n", to: target)
        #expect(try String(contentsOf: target, encoding: .utf8) == "new\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["name.trace"])
    }
}
