import TestSupport
import Testing
import WebRuntime

// The fidelity suites: each probe of fixtures/fidelity/cases/<part>.json, run in the harness,
// must give what real WebKit gave (fixtures/fidelity/expected/<part>.json, written by
// fixtures/fidelity/record.py). A probe listed under a fixture's "differences" expects the
// harness's documented value instead, with the reason.

private func expectMatchesWebKit(_ probe: FidelityProbe) throws {
    let result = try Fidelity.check(probe)
    if let why = result.knownDifference {
        #expect(result.actual == result.expected, "documented difference from WebKit (\(why))")
    } else {
        #expect(result.actual == result.expected, "WebKit gives \(result.expected)")
    }
}

private func expectCaseFileLoads(_ part: String, atLeast: Int) throws {
    let counts = try Fidelity.counts(part)
    #expect(counts.probes >= atLeast)
    #expect(Fidelity.probes(part).count == counts.probes)
}

@Suite struct CSSOMFidelityTests {
    @Test func caseFileLoads() throws { try expectCaseFileLoads("cssom", atLeast: 40) }
    @Test(arguments: Fidelity.probes("cssom")) func matchesWebKit(_ probe: FidelityProbe) throws { try expectMatchesWebKit(probe) }
}

@Suite struct CascadeFidelityTests {
    @Test func caseFileLoads() throws { try expectCaseFileLoads("cascade", atLeast: 80) }
    @Test(arguments: Fidelity.probes("cascade")) func matchesWebKit(_ probe: FidelityProbe) throws { try expectMatchesWebKit(probe) }
}

@Suite struct StyleSheetsFidelityTests {
    @Test func caseFileLoads() throws { try expectCaseFileLoads("stylesheets", atLeast: 70) }
    @Test(arguments: Fidelity.probes("stylesheets")) func matchesWebKit(_ probe: FidelityProbe) throws { try expectMatchesWebKit(probe) }
}

@Suite struct InlineStyleFidelityTests {
    @Test func caseFileLoads() throws { try expectCaseFileLoads("inline-style", atLeast: 80) }
    @Test(arguments: Fidelity.probes("inline-style")) func matchesWebKit(_ probe: FidelityProbe) throws { try expectMatchesWebKit(probe) }
}

@Suite struct ComputedStyleFidelityTests {
    @Test func caseFileLoads() throws { try expectCaseFileLoads("computed-style", atLeast: 60) }
    @Test(arguments: Fidelity.probes("computed-style")) func matchesWebKit(_ probe: FidelityProbe) throws { try expectMatchesWebKit(probe) }
}

@Suite struct MutationObserverFidelityTests {
    @Test func caseFileLoads() throws { try expectCaseFileLoads("mutation-observer", atLeast: 30) }
    @Test(arguments: Fidelity.probes("mutation-observer")) func matchesWebKit(_ probe: FidelityProbe) throws { try expectMatchesWebKit(probe) }
}

@Suite struct EventsFidelityTests {
    @Test func caseFileLoads() throws { try expectCaseFileLoads("events", atLeast: 20) }
    @Test(arguments: Fidelity.probes("events")) func matchesWebKit(_ probe: FidelityProbe) throws { try expectMatchesWebKit(probe) }
}

@Suite struct InertParsingFidelityTests {
    @Test func caseFileLoads() throws { try expectCaseFileLoads("inert", atLeast: 10) }
    @Test(arguments: Fidelity.probes("inert")) func matchesWebKit(_ probe: FidelityProbe) throws { try expectMatchesWebKit(probe) }
}

@Suite struct MediaFidelityTests {
    @Test func caseFileLoads() throws { try expectCaseFileLoads("media", atLeast: 20) }
    @Test(arguments: Fidelity.probes("media")) func matchesWebKit(_ probe: FidelityProbe) throws { try expectMatchesWebKit(probe) }
}

@Suite struct GeometryFidelityTests {
    @Test func caseFileLoads() throws { try expectCaseFileLoads("geometry", atLeast: 30) }
    @Test(arguments: Fidelity.probes("geometry")) func matchesWebKit(_ probe: FidelityProbe) throws { try expectMatchesWebKit(probe) }
}

@Suite struct BoxModelFidelityTests {
    @Test func caseFileLoads() throws { try expectCaseFileLoads("box-model", atLeast: 140) }
    @Test(arguments: Fidelity.probes("box-model")) func matchesWebKit(_ probe: FidelityProbe) throws { try expectMatchesWebKit(probe) }
}

@Suite struct HistoryFidelityTests {
    @Test func caseFileLoads() throws { try expectCaseFileLoads("history", atLeast: 30) }
    @Test(arguments: Fidelity.probes("history")) func matchesWebKit(_ probe: FidelityProbe) throws { try expectMatchesWebKit(probe) }
}

@Suite struct CookieFidelityTests {
    @Test func caseFileLoads() throws { try expectCaseFileLoads("cookies", atLeast: 16) }
    @Test(arguments: Fidelity.probes("cookies")) func matchesWebKit(_ probe: FidelityProbe) throws { try expectMatchesWebKit(probe) }
}

@Suite struct PerformanceFidelityTests {
    @Test func caseFileLoads() throws { try expectCaseFileLoads("performance", atLeast: 11) }
    @Test(arguments: Fidelity.probes("performance")) func matchesWebKit(_ probe: FidelityProbe) throws { try expectMatchesWebKit(probe) }
}

@Suite struct CustomElementsFidelityTests {
    @Test func caseFileLoads() throws { try expectCaseFileLoads("custom-elements", atLeast: 17) }
    @Test(arguments: Fidelity.probes("custom-elements")) func matchesWebKit(_ probe: FidelityProbe) throws { try expectMatchesWebKit(probe) }
}

@Suite struct ChannelMessagingFidelityTests {
    @Test func caseFileLoads() throws { try expectCaseFileLoads("channel-messaging", atLeast: 12) }
    @Test(arguments: Fidelity.probes("channel-messaging")) func matchesWebKit(_ probe: FidelityProbe) throws { try expectMatchesWebKit(probe) }
}

@Suite struct FetchAPIFidelityTests {
    @Test func caseFileLoads() throws { try expectCaseFileLoads("fetch-api", atLeast: 16) }
    @Test(arguments: Fidelity.probes("fetch-api")) func matchesWebKit(_ probe: FidelityProbe) throws { try expectMatchesWebKit(probe) }
}

@Suite struct SerializationFidelityTests {
    @Test func caseFileLoads() throws { try expectCaseFileLoads("serialization", atLeast: 16) }
    @Test(arguments: Fidelity.probes("serialization")) func matchesWebKit(_ probe: FidelityProbe) throws { try expectMatchesWebKit(probe) }
}

@Suite struct ResizeObserverFidelityTests {
    @Test func caseFileLoads() throws { try expectCaseFileLoads("resize-observer", atLeast: 10) }
    @Test(arguments: Fidelity.probes("resize-observer")) func matchesWebKit(_ probe: FidelityProbe) throws { try expectMatchesWebKit(probe) }
}

@Suite struct AbortFidelityTests {
    @Test func caseFileLoads() throws { try expectCaseFileLoads("abort", atLeast: 10) }
    @Test(arguments: Fidelity.probes("abort")) func matchesWebKit(_ probe: FidelityProbe) throws { try expectMatchesWebKit(probe) }
}

@Suite struct HTMLParserFidelityTests {
    @Test func caseFileLoads() throws { try expectCaseFileLoads("html-parser", atLeast: 30) }
    @Test(arguments: Fidelity.probes("html-parser")) func matchesWebKit(_ probe: FidelityProbe) throws { try expectMatchesWebKit(probe) }
}

@Suite struct SelectorsFidelityTests {
    @Test func caseFileLoads() throws { try expectCaseFileLoads("selectors", atLeast: 140) }
    @Test(arguments: Fidelity.probes("selectors")) func matchesWebKit(_ probe: FidelityProbe) throws { try expectMatchesWebKit(probe) }
}

@Suite struct ScriptsFidelityTests {
    @Test func caseFileLoads() throws { try expectCaseFileLoads("scripts", atLeast: 50) }
    @Test(arguments: Fidelity.probes("scripts")) func matchesWebKit(_ probe: FidelityProbe) throws { try expectMatchesWebKit(probe) }
}

/// Issue 21, point 4: what a content script's world sees after the page patches the DOM and the
/// builtins, and what the page sees of a content script (recorded in an isolated WebKitGTK
/// script world; the fixtures with `"world": "isolated"` run their probes in a content world).
@Suite struct IsolatedWorldsFidelityTests {
    @Test func caseFileLoads() throws { try expectCaseFileLoads("isolated-worlds", atLeast: 49) }
    @Test(arguments: Fidelity.probes("isolated-worlds")) func matchesWebKit(_ probe: FidelityProbe) throws { try expectMatchesWebKit(probe) }
}
