import CommandLineKit
import Foundation
import HarnessCLI
import Testing
import TestSupport

/// `adv-harness test` (issue 22, point 2): extensions' own tests, written with browser.test.
@Suite struct TestCommandTests {
    func test(_ words: [String]) -> (code: Int32, out: String, err: String) {
        let (output, out, err) = CommandOutput.buffer()
        let code = HarnessCommand.run(["test"] + words, output: output)
        return (code, out(), err())
    }

    /// An extension folder of its own with `files`.
    static func extensionFolder(_ files: [String: String]) throws -> URL {
        let folder = Support.scratchRoot.appendingPathComponent("ext-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return folder
    }

    @Test func theSampleExtensionPasses() throws {
        let sample = Support.fixtures.appendingPathComponent("extensions/test-api-sample").path
        let junit = Support.scratchRoot.appendingPathComponent("tests-\(UUID().uuidString).xml")
        let result = test([sample, "--junit", junit.path])
        #expect(result.code == 0, "\(result.out)\(result.err)")
        #expect(result.out.contains("PASS  Test API Sample (5 assertions"))
        #expect(result.out.hasSuffix("1 passed, 0 failed\n"))
        #expect(try String(contentsOf: junit, encoding: .utf8).contains("name=\"Test API Sample\""))
    }

    @Test func aFailingAssertionIsNamedWithItsValuesAndPlace() throws {
        let content = """
            browser.test.assertEq(document.getElementById('ad').textContent, 'Sponsored', 'the ad is found');
            browser.test.notifyPass();
            """
        let folder = try Self.extensionFolder([
            "manifest.json": #"{"manifest_version": 3, "name": "Checks", "version": "1", "content_scripts": [{"matches": ["https://site.example/*"], "js": ["content.js"]}]}"#,
            "content.js": content,
            "page.html": "<!DOCTYPE html><p id=ad>Promoted</p>",
        ])
        let page = "https://site.example/=" + folder.appendingPathComponent("page.html").path
        let failed = test([folder.path, "--page", page])
        #expect(failed.code == 1)
        #expect(failed.out.contains("FAIL  Checks (1 assertion"))
        #expect(failed.out.contains("assertion failed: the ad is found (expected \"Sponsored\", actual \"Promoted\") at safari-web-extension://"))
        #expect(failed.out.contains("/content.js:1:22"))
        // Without the page nothing reports: the run says so instead of passing.
        let silent = test([folder.path, "--budget", "500"])
        #expect(silent.code == 1 && silent.out.contains("never used its test API"))
        // Without a grant for the site the content script does not run there.
        let denied = test([folder.path, "--page", page, "--grant", "other.example", "--budget", "500"])
        #expect(denied.code == 1 && denied.out.contains("never used its test API"))
    }

    @Test func badInputIsExitTwoBeforeAnythingRuns() throws {
        let sample = Support.fixtures.appendingPathComponent("extensions/test-api-sample").path
        #expect(test([]).code == 2)
        #expect(test([sample, "--profile", "firefox"]).code == 2)
        #expect(test([sample, "--page", "nourl"]).code == 2)
        #expect(test([sample, "--page", "https://a.example/=/no/such/file.html"]).err.contains("cannot read the page"))
        let missing = test([sample, "/no/such/extension"])
        #expect(missing.code == 2 && !missing.out.contains("PASS"), "nothing runs when one folder is bad")
        #expect(test([sample, "--junit", Support.scratchRoot.path]).code == 2, "a folder is never replaced by the report")
        #expect(test([sample, "--config", "[1]"]).err.contains("--config must be a JSON object"))
    }

    @Test func theAPISampleExercisesStorageAlarmsAndPermissions() throws {
        let sample = Support.fixtures.appendingPathComponent("extensions/api-sample").path
        let result = test([sample])
        #expect(result.code == 0, "\(result.out)")
        #expect(result.out.contains("PASS  API Sample (13 assertions, virtual 30.0s)"))
    }

    @Test func theTabsAndWindowsSampleArrangesWindowsAndTabs() throws {
        let sample = Support.fixtures.appendingPathComponent("extensions/tabs-windows-sample").path
        let result = test([sample])
        #expect(result.code == 0, "\(result.out)")
        #expect(result.out.contains("PASS  Tabs and Windows Sample (18 assertions"))
    }

    @Test func theChromeTabsSampleMovesHighlightsGroupsAndDiscards() throws {
        let sample = Support.fixtures.appendingPathComponent("extensions/tabs-chrome-sample").path
        let result = test([sample, "--profile", "chromium"])
        #expect(result.code == 0, "\(result.out)")
        #expect(result.out.contains("PASS  Tabs Chrome Sample (5 tests"))
    }

    @Test func chromeStyleTestsRunInTheChromiumProfile() throws {
        let sample = Support.fixtures.appendingPathComponent("extensions/chrome-test-sample").path
        let passed = test([sample, "--profile", "chromium"])
        #expect(passed.code == 0, "\(passed.out)")
        #expect(passed.out.contains("PASS  Chrome Test Sample (5 tests"))
        let folder = try Self.extensionFolder([
            "manifest.json": #"{"manifest_version": 3, "name": "Runs", "version": "1", "background": {"service_worker": "w.js"}}"#,
            "w.js": """
                chrome.test.runTests([
                  function config() { chrome.test.getConfig(chrome.test.callbackPass((c) => chrome.test.assertEq(3, c.customArg))); },
                  function ok() { chrome.test.succeed(); },
                ]).catch(() => {});
                """,
        ])
        let failed = test([folder.path, "--profile", "chromium", "--config", #"{"customArg": 4}"#])
        #expect(failed.code == 1)
        #expect(failed.out.contains("FAIL  Runs (2 tests"), "\(failed.out)")
        #expect(failed.out.contains("API Test Error in config"))
        #expect(failed.out.contains("3 did not deep-equal 4 (expected 3, actual 4) at chrome-extension://"))
        #expect(failed.out.contains("notifyFail: Failed 1 of 2 tests"))
    }
}
