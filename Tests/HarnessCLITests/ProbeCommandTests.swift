import CommandLineKit
import Foundation
import HarnessCLI
import Testing
import TestSupport

/// `adv-harness probe` (issue 20, point 8): a user's own case file run in the harness, printed or
/// compared with what WebKit recorded for it.
@Suite struct ProbeCommandTests {
    /// A folder of its own holding `files`, for one test.
    static func folder(_ files: [String: String]) throws -> URL {
        let folder = Support.scratchRoot.appendingPathComponent("probe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return folder
    }

    static let cases = """
    {"part": "mine", "fixtures": [
      {"name": "banner", "html": "<div id=ad class='x y'></div><style>#ad{color:red}</style>",
       "probes": ["document.querySelectorAll('.x.y').length", "document.getElementById('ad').className", "typeof nothing"]},
      {"name": "known", "html": "<p>", "probes": ["1 + 1"], "differences": {"0": {"adv": 2, "why": "an example"}}}
    ]}
    """

    func probe(_ words: [String]) -> (code: Int32, out: String, err: String) {
        let (output, out, err) = CommandOutput.buffer()
        let code = HarnessCommand.run(["probe"] + words, output: output)
        return (code, out(), err())
    }

    @Test func printsEveryProbesValue() throws {
        let dir = try Self.folder(["mine.json": Self.cases])
        let result = probe([dir.appendingPathComponent("mine.json").path])
        #expect(result.code == 0, "\(result.err)")
        #expect(result.out.contains("banner[0] document.querySelectorAll('.x.y').length\n  = 1"))
        #expect(result.out.contains("banner[1] document.getElementById('ad').className\n  = \"x y\""))
        #expect(result.out.contains("banner[2] typeof nothing\n  = \"undefined\""))
        // --json prints the values in the recorder's format, which --expected reads back.
        let json = probe([dir.appendingPathComponent("mine.json").path, "--json"])
        let parsed = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any]
        let results = parsed?["results"] as? [String: [Any]]
        #expect(results?["banner"]?.count == 3 && results?["known"]?.count == 1)
        try json.out.write(to: dir.appendingPathComponent("back.json"), atomically: true, encoding: .utf8)
        #expect(probe([dir.appendingPathComponent("mine.json").path, "--expected", dir.appendingPathComponent("back.json").path]).code == 0)
    }

    @Test func agreesWithMatchingRecordingAndFailsOnADifference() throws {
        let good = #"{"engine": "WebKitGTK 2.50.1", "results": {"banner": [1, "x y", "undefined"], "known": [3]}}"#
        let bad = #"{"engine": "WebKitGTK 2.50.1", "results": {"banner": [2, "x y", "undefined"], "known": [3]}}"#
        let dir = try Self.folder(["mine.json": Self.cases, "good.json": good, "bad.json": bad])
        let cases = dir.appendingPathComponent("mine.json").path
        let agreed = probe([cases, "--expected", dir.appendingPathComponent("good.json").path])
        #expect(agreed.code == 0, "\(agreed.out)\(agreed.err)")
        // The documented difference is compared with its own value (2), not WebKit's (3).
        #expect(agreed.out.contains("4 probes: 4 agree, 0 differ (1 compared with a documented difference)"))
        let differed = probe([cases, "--expected", dir.appendingPathComponent("bad.json").path])
        #expect(differed.code == 1)
        #expect(differed.out.contains("DIFF banner[0] document.querySelectorAll('.x.y').length\n  WebKit:  2\n  harness: 1"))
        #expect(differed.out.contains("4 probes: 3 agree, 1 differ"))
        let only = probe([cases, "--expected", dir.appendingPathComponent("bad.json").path, "--fixture", "known"])
        #expect(only.code == 0 && only.out.contains("1 probes: 1 agree"))
    }

    @Test func badInputIsExitTwoWithThePosition() throws {
        let dir = try Self.folder([
            "comma.json": #"{"part": "x", "fixtures": [],}"#,
            "type.json": "{\"part\": \"x\",\n \"fixtures\": [{\"name\": \"a\", \"html\": \"\", \"probes\": [1]}]}",
            "key.json": #"{"part": "x", "fixtures": [{"name": "a", "html": "", "probes": [], "viewPort": [1, 2]}]}"#,
            "short.json": #"{"engine": "e", "results": {"a": []}}"#,
            "one.json": #"{"part": "x", "fixtures": [{"name": "a", "html": "", "probes": ["1"]}]}"#,
        ])
        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
        let comma = probe([path("comma.json")])
        #expect(comma.code == 2 && comma.err.contains("comma.json:1:"))
        let type = probe([path("type.json")])
        #expect(type.code == 2 && type.err.contains("type.json:2:") && type.err.contains("fixtures[0].probes[0]: must be a string"))
        let key = probe([path("key.json")])
        #expect(key.code == 2 && key.err.contains("unknown key 'viewPort'"))
        let short = probe([path("one.json"), "--expected", path("short.json")])
        #expect(short.code == 2 && short.err.contains("has 0 recorded values for 1 probes"))
        let fixture = probe([path("one.json"), "--fixture", "b"])
        #expect(fixture.code == 2 && fixture.err.contains("no fixture 'b'"))
        #expect(probe([path("missing.json")]).code == 2)
        #expect(probe([]).code == 2)
    }
}
