import BrowserRuntime
import Foundation
import TestSupport
import Testing
import WebRuntime

/// `browser.test` (issue 22, point 1) as WebKit's WebExtensionAPITest reports: assertions with
/// their message, expected and actual text and the caller's place; notifyPass/notifyFail; messages
/// both ways. Only an extension under test has it.
@Suite struct TestAPITests {
    func browser(testAPI: Bool = true) throws -> (Browser, ExtensionHost) {
        var options = Browser.Options()
        options.testAPI = testAPI
        let browser = try Browser(options: options)
        let host = try browser.install(try ExtensionBundle(folder: Support.fixtures.appendingPathComponent("extensions/test-api-sample")))
        try browser.loop.runUntilIdle()
        return (browser, host)
    }

    @Test func theSampleExtensionsOwnTestsPass() throws {
        let (browser, host) = try browser()
        let failed = browser.testRecords.filter { !$0.passed }
        #expect(failed.isEmpty, "\(failed.map(\.summary))")
        #expect(browser.testRecords.filter { $0.kind == .assert || $0.kind == .equal }.count == 5)
        #expect(browser.testRecords.suffix(2).map(\.kind) == [.message, .pass])
        #expect(browser.testRecords.suffix(2).first?.message == "ready")
        #expect(browser.testRecords.first?.location.hasPrefix(host.bundle.url("worker.js") + ":5:") == true, "\(browser.testRecords.first?.location ?? "")")
        browser.sendTestMessage("ping", argumentJSON: "7", to: host)
        try browser.loop.runUntilIdle()
        #expect(browser.testRecords.suffix(2).map(\.kind) == [.equal, .message])
        #expect(browser.testRecords.last?.actual == #"{"got":7}"#)
        #expect(browser.trace.dump(channels: [.api]).contains("test notifyPass: every check held at \(host.bundle.url("worker.js"))"))
    }

    @Test func failingAssertionsSayWhatWasExpectedAndWhere() throws {
        let (browser, host) = try browser()
        let worker = try #require(host.backgroundWorld)
        let before = browser.testRecords.count
        try worker.evaluate("""
            browser.test.assertEq([1], [1], 'arrays are objects');
            browser.test.assertEq('1', 1);
            browser.test.assertDeepEq({b: 2, a: 1}, {a: 1, b: 2});
            browser.test.assertTrue(0, 'zero is false');
            browser.test.assertThrows(() => { throw new TypeError('boom'); }, /bo+m/);
            browser.test.assertThrows(() => 1, 'x', 'quiet');
            browser.test.log(/re/g);
            """, sourceURL: "tests.js")
        let records = Array(browser.testRecords[before...])
        #expect(records.map(\.passed) == [false, false, true, false, true, false, true])
        #expect(records[0].expected == "[1]" && records[0].actual == "[1] (different)")
        #expect(records[1].expected == "1" && records[1].actual == "\"1\"")
        #expect(records[5].summary == "assertion failed: quiet — Function did not throw an exception (expected \"x\", actual (no exception)) at tests.js:6:26")
        #expect(records[6].message == "/re/g")
        // JavaScriptCore places a call at its opening parenthesis.
        #expect(records[3].location == "tests.js:4:24")
    }

    @Test func rejectsAndResolvesReportWhenSettled() throws {
        let (browser, host) = try browser()
        let worker = try #require(host.backgroundWorld)
        let before = browser.testRecords.count
        let result = try Support.await(browser, worker, """
            const value = await browser.test.assertResolves(Promise.resolve(5));
            await browser.test.assertRejects(Promise.resolve(1), 'no', 'resolves instead');
            await browser.test.assertRejects(Promise.reject(new Error('bad input')), 'bad input');
            const safe = browser.test.assertSafe(() => 'ok');
            browser.test.runWithUserGesture(() => browser.test.assertTrue(browser.test.isProcessingUserGesture(), 'inside'));
            browser.test.assertFalse(browser.test.isProcessingUserGesture(), 'outside');
            return [value, safe].join();
            """) as? String
        #expect(result == "5,ok")
        #expect(browser.testRecords[before...].map(\.passed) == [true, false, true, true, true, true])
    }

    @Test func onlyAnExtensionUnderTestHasIt() throws {
        let (_, host) = try browser(testAPI: false)
        #expect(try Support.eval(try #require(host.backgroundWorld), "typeof browser.test") as? String == "undefined")
    }
}
