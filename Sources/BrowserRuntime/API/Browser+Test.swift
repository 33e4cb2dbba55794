import JSKit
import WebRuntime

/// What an extension's `browser.test` reported (WebKit's WebExtensionAPITest messages to its
/// controller: TestResult, TestEqual, TestFinished, TestSentMessage, TestLogMessage).
public struct TestRecord: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// assertTrue/False, assertSafe, assertResolves, succeed, fail.
        case assert
        /// assertEq, assertDeepEq, assertThrows, assertRejects: with expected and actual text.
        case equal
        /// notifyPass / notifyFail: the context says its test is over.
        case pass, fail
        /// test.sendMessage(message, argument): `actual` holds the argument's JSON.
        case message
        /// test.log(value): `message` holds the value as WebKit shows it.
        case log
        /// chrome.test: one test of a runTests run ended, passed or failed (Chromium's
        /// onTestFinished); `message` is the test's name.
        case result
    }

    /// The extension's id.
    public let extensionID: String
    /// The context, as traces name it (`background`, `tab1 frame0 content`, `popup`).
    public let context: String
    public let kind: Kind
    /// Whether the assertion held (always true for log and message, false for fail).
    public let passed: Bool
    public let message: String
    public let expected: String?
    public let actual: String?
    /// Where the call was made: `url:line:column` of the extension's script.
    public let location: String

    /// True for what fails a test: a failed check or notifyFail (a failed test's result only
    /// follows the failed check that says why).
    public var isFailure: Bool { !passed && kind != .result }

    /// One line, as the trace and `adv-harness test` print it.
    public var summary: String {
        switch kind {
        case .pass: return "notifyPass" + (message.isEmpty ? "" : ": " + message) + " at " + location
        case .fail: return "notifyFail" + (message.isEmpty ? "" : ": " + message) + " at " + location
        case .message: return "sendMessage \(message) \(actual ?? "null") at \(location)"
        case .log: return "log \(message) at \(location)"
        case .result: return "test \(message) \(passed ? "passed" : "failed") at \(location)"
        case .assert, .equal:
            var text = (passed ? "assertion passed" : "assertion failed") + (message.isEmpty ? "" : ": " + message.replacingOccurrences(of: "\n", with: " — "))
            if !passed, let expected, let actual { text += " (expected \(expected), actual \(actual))" }
            return text + " at " + location
        }
    }
}

extension Browser {
    /// `host.testRecord(contextId, kind, passed, message, expected, actual, location)` and
    /// `host.testGesture(contextId, on)` for browser-api.js's `browser.test`.
    static func installTestFunctions(_ define: (String, Int, @escaping (Browser, HostCall) throws -> JSValue?) throws -> Void) throws {
        try define("testRecord", 7) { browser, call in
            guard let context = browser.contexts[Int(try call.argument(0).toNumber())],
                  let kind = TestRecord.Kind(rawValue: try call.argument(1).toString()) else { throw Browser.contextInvalidated }
            let record = TestRecord(
                extensionID: context.host.id, context: context.location, kind: kind, passed: call.argument(2).toBool,
                message: try call.argument(3).toString(), expected: call.argument(4).stringValue, actual: call.argument(5).stringValue,
                location: try call.argument(6).toString())
            browser.testRecords.append(record)
            browser.trace.record(.api, at: context.location, "test " + record.summary)
            return nil
        }
        try define("testConfig", 1) { browser, call in call.context.string(browser.options.testConfigJSON) }
        try define("testGesture", 2) { browser, call in
            let value = call.argument(1)
            if value.isBoolean { browser.inUserGesture = value.toBool }
            return call.context.boolean(browser.inUserGesture)
        }
    }

    /// Delivers `browser.test.onMessage` to every live context of `host`, each in a task of its
    /// own (WebKit's dispatchTestMessageEvent): listeners get the message and the argument
    /// parsed from JSON. Chromium's `chrome.test.onMessage` gets one `{data, lastMessage}`
    /// object (extensions/common/api/test.json), the argument unused.
    public func sendTestMessage(_ message: String, argumentJSON: String = "null", to host: ExtensionHost) {
        let arguments = options.profile == .chromium
            ? [JSONText.object([("data", JSONText.string(message)), ("lastMessage", "false")])]
            : [JSONText.string(message), argumentJSON]
        for context in liveContexts(of: host) { context.dispatch("test.onMessage", json: arguments) }
    }
}
