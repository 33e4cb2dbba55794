// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ADV",
    products: [
        .library(name: "BlockerCore", targets: ["BlockerCore"]),
        .executable(name: "adv-check", targets: ["adv-check"]),
    ],
    targets: [
        // Pure Swift + Foundation: built-in rules, DNR model/validation/matcher,
        // WebKit Content Blocker translation/evaluation, hostnames. No JavaScriptCore.
        .target(
            name: "BlockerCore",
            path: "Sources/BlockerCore",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The adv-check commands (export, verify, package, bench) as a library tests can call.
        .target(
            name: "ADVCheckKit",
            dependencies: ["BlockerCore"],
            path: "Sources/ADVCheckKit",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Thin CLI over ADVCheckKit: arguments in, text out, exit status.
        .executableTarget(
            name: "adv-check",
            dependencies: ["ADVCheckKit"],
            path: "Sources/adv-check",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "BlockerCoreTests",
            dependencies: ["BlockerCore", "ADVCheckKit"],
            path: "Tests/BlockerCoreTests",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
