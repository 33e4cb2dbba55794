import BrowserRuntime
import Foundation
import TestSupport
import Testing
import WebRuntime

/// `chrome.test` in the chromium profile (issue 22, point 1): Chromium's names and framework,
/// not WebKit's. A passing check says nothing; a failing one ends its test with Chromium's
/// message; runTests ends with notifyPass or notifyFail("Failed N of M tests").
@Suite struct ChromeTestAPITests {
    /// A browser in the chromium profile with an extension whose worker is `worker`.
    func chromium(_ worker: String, config: String = "{}") throws -> (Browser, ExtensionHost) {
        var options = Browser.Options()
        options.profile = .chromium
        options.testAPI = true
        options.testConfigJSON = config
        let browser = try Browser(options: options)
        let folder = try Support.extensionFolder("chrome-test", [
            "manifest.json": #"{"manifest_version": 3, "name": "T", "version": "1", "background": {"service_worker": "w.js"}, "permissions": ["storage"]}"#,
            "w.js": worker,
        ])
        let host = try browser.install(try ExtensionBundle(folder: folder))
        try browser.loop.runUntilIdle()
        return (browser, host)
    }

    func without(_ kinds: Set<TestRecord.Kind>, _ records: [TestRecord]) -> [TestRecord] { records.filter { !kinds.contains($0.kind) } }

    @Test func theSampleExtensionsTestsPass() throws {
        var options = Browser.Options()
        options.profile = .chromium
        options.testAPI = true
        let browser = try Browser(options: options)
        _ = try browser.install(try ExtensionBundle(folder: Support.fixtures.appendingPathComponent("extensions/chrome-test-sample")))
        try browser.loop.runUntilIdle()
        let records = browser.testRecords
        #expect(records.filter(\.isFailure).isEmpty, "\(records.map(\.summary))")
        #expect(records.filter { $0.kind == .result }.map(\.message)
            == ["storageRoundTripWithCallbacks", "unknownTabSetsLastError", "onChangedFiresOnce", "promisesToo", "theHarnessCanTalkToTheExtension"])
        #expect(records.last?.kind == .pass)
        #expect(records.contains { $0.kind == .log && $0.message == "( RUN      ) promisesToo" })
    }

    @Test func aFailedCheckEndsItsTestAndTheRunSaysHowManyFailed() throws {
        let (browser, host) = try chromium("""
            globalThis.outcome = chrome.test.runTests([
              function compares() {
                chrome.test.assertEq({a: [1, 2]}, {a: [1, 3]}, 'lists differ');
                chrome.test.log('not reached');
              },
              function types() { chrome.test.assertEq(1, '1'); },
              function passes() { chrome.test.assertEq(new Date(5), new Date(5)); chrome.test.succeed(); },
            ]).then(() => 'resolved', (error) => error.message);
            """)
        let records = without([.log], browser.testRecords)
        #expect(records.map(\.kind) == [.equal, .result, .equal, .result, .result, .fail])
        #expect(records[0].message == "API Test Error in compares: lists differ\n{\"a\":[1,2]} did not deep-equal {\"a\":[1,3]}")
        #expect(records[0].expected == #"{"a":[1,2]}"# && records[0].actual == #"{"a":[1,3]}"#)
        #expect(records[0].location.hasSuffix("w.js:3:25"), "\(records[0].location)")
        #expect(records[2].message == "API Test Error in types\n1 did not deep-equal 1 (type mismatch)\nType: number\nOther Type:string")
        #expect(records.map(\.passed) == [false, false, false, false, true, false])
        #expect(records.last?.message == "Failed 2 of 3 tests")
        #expect(!browser.testRecords.contains { $0.message == "not reached" })
        #expect(try Support.await(browser, try #require(host.backgroundWorld), "return await outcome") as? String == "Failed 2 of 3 tests")
        // The framework's stop is control flow, never an uncaught error.
        #expect(browser.trace.dump(channels: [.error]).isEmpty, "\(browser.trace.dump(channels: [.error]))")
    }

    @Test func exceptionsAndCallbacksFollowChromiumsFramework() throws {
        let (browser, _) = try chromium("""
            chrome.test.runTests([
              function throws() { null.x; },
              async function rejects() { await 0; throw new Error('late'); },
              function lastErrorChecked() {
                chrome.storage.local.get(chrome.test.callbackPass((items) => chrome.test.assertEq({}, items)));
              },
              function wrongLastError() { chrome.storage.local.get(chrome.test.callbackFail('No such error')); },
              function nonBoolean() { chrome.test.assertTrue(1); },
              function throwsChecks() {
                chrome.test.assertThrows(() => { throw new TypeError('bad'); }, null, [], /ba+d/);
                chrome.test.assertThrows(() => { throw new TypeError('bad'); }, null, [], 'bad');
                chrome.test.succeed();
              },
            ]);
            """)
        let failures = browser.testRecords.filter(\.isFailure).map(\.message)
        #expect(failures.count == 5, "\(failures)")
        #expect(failures.first?.hasPrefix("uncaught exception: null is not an object") == true)
        #expect(Array(failures.dropFirst()) == [
            "uncaught exception: late", "No lastError, but expected No such error",
            "API Test Error in nonBoolean: assertTrue and assertFalse require a boolean condition.", "Failed 4 of 6 tests",
        ])
        let results = browser.testRecords.filter { $0.kind == .result }.map { "\($0.message) \($0.passed)" }
        #expect(results == ["throws false", "rejects false", "lastErrorChecked true", "wrongLastError false", "nonBoolean false", "throwsChecks true"])
        // The framework's stop is never an uncaught error; runTests' promise, unhandled here,
        // rejects with the run's outcome, as in Chromium (an unhandled rejection there too).
        let errors = browser.trace.events.filter { $0.channel == .error }.map(\.text)
        #expect(errors.count == 1 && errors[0].hasPrefix("Unhandled Promise Rejection: Error: Failed 4 of 6 tests"), "\(errors)")
    }

    @Test func aCallbackRunTwiceOrAnAssertThrowsThatDidNotThrowFails() throws {
        let (twice, _) = try chromium("const done = chrome.test.callbackPass(); done(); done();")
        #expect(twice.testRecords.filter(\.isFailure).first?.message.hasPrefix("Callback has already been run. First call:\n") == true)
        // assertThrows' own failure is caught inside it, as in Chromium: the script goes on.
        let (quiet, _) = try chromium("chrome.test.assertThrows(() => 1, null, []); chrome.test.log('went on');")
        #expect(without([.result], quiet.testRecords).map(\.message).prefix(3) == ["(  FAILED  ) (no test)", "Did not throw error: () => 1", "went on"])
        #expect(quiet.testRecords.last?.message == "Failed 1 of 1 tests")
    }

    @Test func deepEqualityIsChromiums() throws {
        let (_, host) = try chromium("")
        let worker = try #require(host.backgroundWorld)
        let table: [(String, Bool)] = [
            ("NaN, NaN", true), ("0, -0", true), ("null, undefined", false), ("[1, [2]], [1, [2]]", true), ("[1], {0: 1}", false),
            ("{a: 1, b: 2}, {b: 2, a: 1}", true), ("{a: 1}, {a: 1, b: undefined}", false), ("new Set([1, 2]), new Set([2, 1])", true),
            ("new Map([[1, {x: 1}]]), new Map([[1, {x: 2}]])", false), ("new Date(NaN), new Date(NaN)", true),
            ("new Number(1), new Number(1)", true), ("new Number(1), 1", false), ("function f() {}, function f() {}", true),
            ("new Uint8Array([1, 2]).buffer, new Uint8Array([1, 2]).buffer", true), ("new ArrayBuffer(1), new ArrayBuffer(2)", false),
            ("'a', 'a'", true), ("1, '1'", false),
        ]
        for (arguments, equal) in table {
            #expect(try Support.eval(worker, "chrome.test.checkDeepEq(\(arguments))") as? Bool == equal, "\(arguments)")
        }
    }

    @Test func succeedOutsideRunTestsEndsARunOfOne() throws {
        let (browser, _) = try chromium("chrome.test.assertNoLastError(); chrome.test.succeed();")
        #expect(without([.log], browser.testRecords).map(\.kind) == [.result, .pass])
        let (failing, _) = try chromium("chrome.test.fail('stop here');")
        #expect(without([.log], failing.testRecords).map(\.summary).first?.hasPrefix("assertion failed: stop here at chrome-extension://") == true)
        #expect(failing.testRecords.last?.message == "Failed 1 of 1 tests")
    }

    @Test func messagesConfigAndGestures() throws {
        let (browser, host) = try chromium("""
            chrome.test.onMessage.addListener((info) => chrome.test.sendMessage('got ' + info.data + ' ' + info.lastMessage));
            chrome.test.getConfig((config) => chrome.test.sendMessage('port ' + config.testServer.port));
            chrome.test.runWithUserGesture(() => chrome.test.sendMessage('gesture ' + chrome.test.isProcessingUserGesture()));
            chrome.test.sendMessage('outside ' + chrome.test.isProcessingUserGesture());
            chrome.test.waitForRoundTrip('back', (message) => chrome.test.sendMessage(message));
            """, config: #"{"testServer": {"port": 8080}}"#)
        browser.sendTestMessage("hello", to: host)
        try browser.loop.runUntilIdle()
        let sent = browser.testRecords.filter { $0.kind == .message }.map(\.message)
        #expect(sent == ["gesture true", "outside false", "port 8080", "back", "got hello false"], "\(sent)")
    }

    @Test func theSafariProfileKeepsWebKitsTestAPIUnderBothNames() throws {
        var options = Browser.Options()
        options.testAPI = true
        let browser = try Browser(options: options)
        let host = try browser.install(try ExtensionBundle(folder: Support.fixtures.appendingPathComponent("extensions/test-api-sample")))
        try browser.loop.runUntilIdle()
        let worker = try #require(host.backgroundWorld)
        #expect(try Support.eval(worker, "chrome.test === browser.test && typeof chrome.test.runTests") as? String == "undefined")
        #expect(try Support.eval(worker, "typeof browser.test.assertDeepEq") as? String == "function")
    }
}
