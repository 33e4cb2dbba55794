import Testing
@testable import JSKit

@Suite struct ExecutionLimitTests {
    @Test func runawayScriptIsStoppedAndContextLivesOn() throws {
        let group = JSContextGroup()
        group.setExecutionTimeLimit(seconds: 0.2)
        let context = JSContext(group: group)
        let error = #expect(throws: JSError.self) {
            try context.evaluate("while (true) {}", sourceURL: "https://site.example/runaway.js")
        }
        #expect(error?.isTermination == true)
        #expect(error?.sourceURL == "https://site.example/runaway.js")
        #expect(error?.description.contains("runaway.js") == true)
        // try/catch in script cannot swallow the termination.
        let caught = #expect(throws: JSError.self) {
            try context.evaluate("try { for (;;) {} } catch (e) { 'swallowed' }", sourceURL: "catch.js")
        }
        #expect(caught?.isTermination == true)
        #expect(try context.evaluate("1 + 1").numberValue == 2)
    }

    @Test func limitAppliesToCallsFromSwiftToo() throws {
        let group = JSContextGroup()
        group.setExecutionTimeLimit(seconds: 0.2)
        let context = JSContext(group: group)
        let spin = try context.evaluate("(function spin() { for (;;) {} })", sourceURL: "spin.js")
        let error = #expect(throws: JSError.self) { try spin.call() }
        #expect(error?.isTermination == true)
        group.clearExecutionTimeLimit()
        #expect(group.executionTimeLimit == nil)
        #expect(try context.evaluate("'alive'").stringValue == "alive")
    }
}
