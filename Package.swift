// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ADV",
    products: [
        .library(name: "JSKit", targets: ["JSKit"]),
        .library(name: "StrictJSON", targets: ["StrictJSON"]),
        .library(name: "BlockerCore", targets: ["BlockerCore"]),
        .library(name: "RuleStore", targets: ["RuleStore"]),
        .library(name: "ExtensionRuntime", targets: ["ExtensionRuntime"]),
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
        // JSKit and the runtime confine every JavaScriptCore object to the thread that runs its
        // session; they use the Swift 5 language mode rather than mark C pointers Sendable.
        .target(name: "JSKit", dependencies: ["CJavaScriptCore"], swiftSettings: [.swiftLanguageMode(.v5)]),
        // The project's one JSON reader: strict RFC 8259, errors with line, column and JSON path.
        // No dependencies; works on bytes.
        .target(name: "StrictJSON", swiftSettings: [.swiftLanguageMode(.v6)]),
        // Pure Swift + Foundation: built-in rules, DNR model/validation/matcher,
        // WebKit Content Blocker translation/evaluation, hostnames. No JavaScriptCore.
        .target(name: "BlockerCore", dependencies: ["StrictJSON"], exclude: ["README.md"], swiftSettings: [.swiftLanguageMode(.v6)]),
        // Personal rule records, merge, the shared rule file, migration, sync engine, native bridge.
        // Foundation only. (Sources/SafariExtension holds the Apple-only handler shell; it is no
        // target here and never builds on Linux.)
        .target(name: "RuleStore", dependencies: ["StrictJSON", "BlockerCore"], swiftSettings: [.swiftLanguageMode(.v6)]),
        // The adv-check commands (export, verify, package, bench, rules) as a library tests can call.
        .target(name: "ADVCheckKit", dependencies: ["BlockerCore", "RuleStore"], swiftSettings: [.swiftLanguageMode(.v6)]),
        .target(
            name: "ExtensionRuntime",
            dependencies: ["JSKit", "StrictJSON", "BlockerCore"],
            resources: [.copy("Web/JS")],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // ADV's own pieces for the generic harness (its native host over the rule store).
        .target(name: "ADVHarnessSupport", dependencies: ["ExtensionRuntime", "RuleStore"], swiftSettings: [.swiftLanguageMode(.v5)]),
        // Thin command-line shells over the libraries: arguments in, text out, exit status.
        .executableTarget(name: "adv-harness", dependencies: ["ExtensionRuntime", "ADVHarnessSupport"]),
        .executableTarget(name: "adv-check", dependencies: ["ADVCheckKit"], swiftSettings: [.swiftLanguageMode(.v6)]),
        // Helper process for the shared-file concurrency and crash tests.
        .executableTarget(name: "adv-rulefile-worker", dependencies: ["RuleStore"], swiftSettings: [.swiftLanguageMode(.v6)]),
        .target(name: "TestSupport", dependencies: ["StrictJSON", "ExtensionRuntime", "ADVHarnessSupport"], path: "Tests/TestSupport"),
        .testTarget(name: "StrictJSONTests", dependencies: ["StrictJSON"], swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(name: "JSKitTests", dependencies: ["JSKit", "CJavaScriptCore"]),
        .testTarget(name: "BlockerCoreTests", dependencies: ["BlockerCore", "ADVCheckKit"], swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(name: "RuleStoreTests", dependencies: ["RuleStore", "adv-rulefile-worker"], swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(name: "ExtensionRuntimeTests", dependencies: ["ExtensionRuntime", "TestSupport"]),
    ]
)
