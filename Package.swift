// swift-tools-version:6.0
import PackageDescription

// The targets are the design: each one imports only the ones below it.
//
//   JSKit ← WebRuntime ← BrowserRuntime ← ScenarioKit ← RuntimeBench ← HarnessCLI ← adv-harness
//           ↑ WebPlatform    ↑ BlockerCore                    ↑ ADVHarnessSupport (ADV's own pieces)
//   BlockerCore ← RuleStore ← ADVCheckKit ← adv-check;   CommandLineKit under both command lines
//   RuleAssistance ← ADVCheckKit   (selector syntax, fixture-page matching and "Check existing
//                                   filters"; Foundation only, it knows nothing of RuleStore)
//
// The runtime targets (WebPlatform, WebRuntime, BrowserRuntime, ScenarioKit, RuntimeBench) run any
// WebExtension and know nothing of ADV; what is ADV's lives in ADVHarnessSupport. The rules are
// stated in README.md ("Layout") and checked by PackageLayoutTests, which reads this file.
let package = Package(
    name: "ADV",
    products: [
        .library(name: "JSKit", targets: ["JSKit"]),
        .library(name: "StrictJSON", targets: ["StrictJSON"]),
        .library(name: "BlockerCore", targets: ["BlockerCore"]),
        .library(name: "RuleStore", targets: ["RuleStore"]),
        .library(name: "RuleAssistance", targets: ["RuleAssistance"]),
        .library(name: "WebRuntime", targets: ["WebRuntime"]),
        .library(name: "BrowserRuntime", targets: ["BrowserRuntime"]),
        .library(name: "ScenarioKit", targets: ["ScenarioKit"]),
        .executable(name: "adv-harness", targets: ["adv-harness"]),
        .executable(name: "adv-check", targets: ["adv-check"]),
    ],
    targets: [
        // The classic JavaScriptCore C API from Debian's WebKitGTK build (the same API Apple ships).
        .systemLibrary(
            name: "CJavaScriptCore",
            pkgConfig: "javascriptcoregtk-4.1",
            providers: [.apt(["libjavascriptcoregtk-4.1-dev"])]
        ),
        // The only code that calls the C API. JSKit and the runtime confine every JavaScriptCore
        // object to the thread that runs its session; they use the Swift 5 language mode rather
        // than mark C pointers Sendable.
        .target(name: "JSKit", dependencies: ["CJavaScriptCore"], swiftSettings: [.swiftLanguageMode(.v5)]),
        // The project's one JSON reader: strict RFC 8259, errors with line, column and JSON path.
        // No dependencies; works on bytes.
        .target(name: "StrictJSON", swiftSettings: [.swiftLanguageMode(.v6)]),
        // "Did you mean": the nearest known word by edit distance, for every refusal of an unknown one.
        .target(name: "Suggestion", swiftSettings: [.swiftLanguageMode(.v6)]),
        // Pure Swift + Foundation: built-in rules, DNR model/validation/matcher,
        // WebKit Content Blocker translation/evaluation, hostnames. No JavaScriptCore.
        .target(name: "BlockerCore", dependencies: ["StrictJSON", "Suggestion"], exclude: ["README.md"], swiftSettings: [.swiftLanguageMode(.v6)]),
        // Personal rule records, merge, the shared rule file, migration, sync engine, native bridge.
        // Foundation only. (Sources/SafariExtension holds the Apple-only handler shell; it is no
        // target here and never builds on Linux.)
        .target(name: "RuleStore", dependencies: ["StrictJSON", "BlockerCore"], swiftSettings: [.swiftLanguageMode(.v6)]),
        // Deterministic diagnostics of personal filters ("Check existing filters"): a selector
        // syntax checker after WebKit's parser, a tolerant HTML tree builder for fixture pages, a
        // selector matcher and the checker. Foundation only; store-independent (no RuleStore).
        .target(name: "RuleAssistance", swiftSettings: [.swiftLanguageMode(.v6)]),
        // The web platform layers over domino (JavaScript resources grouped by concern, each
        // declaring what it provides and requires) and the catalog that orders them.
        .target(name: "WebPlatform", resources: [.copy("JS")], swiftSettings: [.swiftLanguageMode(.v6)]),
        // The headless web: event loop on a virtual clock, sessions, pages, frames' documents,
        // worlds, traces.
        .target(name: "WebRuntime", dependencies: ["JSKit", "WebPlatform"], swiftSettings: [.swiftLanguageMode(.v5)]),
        // The browser over it: extension bundles, manifests, permissions, browser.* (the API
        // surface as data), fault plans, the network model and its DNR / Content Blocker decisions.
        .target(
            name: "BrowserRuntime",
            dependencies: ["WebRuntime", "JSKit", "StrictJSON", "BlockerCore"],
            resources: [.copy("JS")],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // Scenario files, the runner, baselines, diffs, JUnit.
        .target(name: "ScenarioKit", dependencies: ["BrowserRuntime", "WebRuntime", "JSKit", "StrictJSON", "Suggestion", "BlockerCore"], resources: [.copy("JS")], swiftSettings: [.swiftLanguageMode(.v5)]),
        // The runtime's benchmarks (adv-harness bench), generic over any extension.
        .target(name: "RuntimeBench", dependencies: ["ScenarioKit", "BrowserRuntime", "WebRuntime", "JSKit"], swiftSettings: [.swiftLanguageMode(.v5)]),
        // One argument parser, one error style and one output for both command lines.
        .target(name: "CommandLineKit", dependencies: ["Suggestion"], swiftSettings: [.swiftLanguageMode(.v6)]),
        // ADV's pieces for the generic harness: its native host over the rule store, the
        // benchmarks of ADV's own extension, and WebExtension/ as the default extension.
        .target(
            name: "ADVHarnessSupport",
            dependencies: ["ScenarioKit", "RuntimeBench", "BrowserRuntime", "WebRuntime", "JSKit", "RuleStore"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // The adv-harness commands (run, trace, list, bench, demo) as a library tests can call.
        .target(
            name: "HarnessCLI",
            dependencies: ["CommandLineKit", "Suggestion", "ADVHarnessSupport", "RuntimeBench", "ScenarioKit", "BrowserRuntime", "WebRuntime", "JSKit"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // The adv-check commands (export, verify, package, bench, rules) as a library tests can call.
        .target(name: "ADVCheckKit", dependencies: ["CommandLineKit", "Suggestion", "StrictJSON", "BlockerCore", "RuleStore", "RuleAssistance"], swiftSettings: [.swiftLanguageMode(.v6)]),
        // Thin command-line shells over the libraries: arguments in, text out, exit status.
        .executableTarget(name: "adv-harness", dependencies: ["HarnessCLI"]),
        .executableTarget(name: "adv-check", dependencies: ["ADVCheckKit", "CommandLineKit"], swiftSettings: [.swiftLanguageMode(.v6)]),
        // Helper process for the shared-file concurrency and crash tests.
        .executableTarget(name: "adv-rulefile-worker", dependencies: ["RuleStore"], swiftSettings: [.swiftLanguageMode(.v6)]),
        // Helpers shared by every test target.
        .target(
            name: "TestSupport",
            dependencies: ["ADVHarnessSupport", "ScenarioKit", "BrowserRuntime", "WebRuntime", "JSKit", "StrictJSON", "RuleStore", "BlockerCore"],
            path: "Tests/TestSupport"
        ),
        .testTarget(name: "JSKitTests", dependencies: ["JSKit"]),
        .testTarget(name: "SuggestionTests", dependencies: ["Suggestion"], swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(name: "StrictJSONTests", dependencies: ["StrictJSON"], swiftSettings: [.swiftLanguageMode(.v6)]),
        // Reads Package.swift and the sources: the dependency rules of README.md's Layout hold.
        .testTarget(name: "PackageLayoutTests"),
        .testTarget(name: "BlockerCoreTests", dependencies: ["BlockerCore", "TestSupport"], swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(name: "RuleStoreTests", dependencies: ["RuleStore", "BlockerCore", "TestSupport", "adv-rulefile-worker"], swiftSettings: [.swiftLanguageMode(.v6)]),
        // The shared check table runs against RuleAssistance and, in the harness engine, against
        // the popup's JavaScript (WebExtension/shared/rule-assistance.js).
        .testTarget(name: "RuleAssistanceTests", dependencies: ["RuleAssistance", "StrictJSON", "TestSupport", "WebRuntime"], swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(name: "ADVCheckKitTests", dependencies: ["ADVCheckKit", "CommandLineKit", "RuleStore", "BlockerCore", "TestSupport"], swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(name: "WebRuntimeTests", dependencies: ["WebRuntime", "WebPlatform", "BrowserRuntime", "TestSupport", "JSKit"]),
        .testTarget(name: "BrowserRuntimeTests", dependencies: ["BrowserRuntime", "WebRuntime", "TestSupport", "JSKit"]),
        .testTarget(name: "ScenarioKitTests", dependencies: ["ScenarioKit", "BrowserRuntime", "WebRuntime", "StrictJSON", "BlockerCore", "TestSupport"]),
        .testTarget(name: "HarnessCLITests", dependencies: ["HarnessCLI", "CommandLineKit", "RuntimeBench", "ScenarioKit", "WebRuntime", "TestSupport"]),
    ]
)
