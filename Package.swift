// swift-tools-version:6.0
import PackageDescription

let swift6: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "ADV",
    products: [
        .library(name: "RuleStore", targets: ["RuleStore"]),
        .executable(name: "adv-rulefile-worker", targets: ["adv-rulefile-worker"]),
        .executable(name: "adv-rules-dev", targets: ["adv-rules-dev"]),
    ],
    targets: [
        // Only Sources/BlockerCore/Hostname, checked out unchanged from the
        // `blockercore` branch, lives here; the merge brings the rest of the target.
        .target(name: "BlockerCore", path: "Sources/BlockerCore", swiftSettings: swift6),
        .target(
            name: "RuleStore",
            dependencies: ["BlockerCore"],
            swiftSettings: swift6
        ),
        // Helper for the multi-process shared-file test: one process of the crowd.
        .executableTarget(
            name: "adv-rulefile-worker",
            dependencies: ["RuleStore"],
            swiftSettings: swift6
        ),
        // Temporary stand-in for `adv-check rules ...` until the merge wires
        // Sources/adv-check/RulesSubcommand.swift into adv-check's main.swift.
        .executableTarget(
            name: "adv-rules-dev",
            dependencies: ["RuleStore"],
            path: "Sources",
            exclude: ["RuleStore", "BlockerCore", "CJavaScriptCore", "adv-rulefile-worker", "SafariExtension"],
            sources: ["adv-check/RulesSubcommand.swift", "adv-rules-dev/main.swift"],
            swiftSettings: swift6
        ),
        .testTarget(
            name: "RuleStoreTests",
            dependencies: ["RuleStore", "adv-rulefile-worker"],
            swiftSettings: swift6
        ),
    ]
)
