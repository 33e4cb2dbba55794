// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ADV",
    products: [
        .library(name: "JSKit", targets: ["JSKit"]),
        .library(name: "ExtensionRuntime", targets: ["ExtensionRuntime"]),
        .executable(name: "adv-harness", targets: ["adv-harness"]),
    ],
    targets: [
        // The classic JavaScriptCore C API from Debian's WebKitGTK build (the same API Apple ships).
        .systemLibrary(
            name: "CJavaScriptCore",
            pkgConfig: "javascriptcoregtk-4.1",
            providers: [.apt(["libjavascriptcoregtk-4.1-dev"])]
        ),
        .target(name: "JSKit", dependencies: ["CJavaScriptCore"], swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(
            name: "ExtensionRuntime",
            dependencies: ["JSKit"],
            resources: [.copy("Web/JS")],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .executableTarget(name: "adv-harness", dependencies: ["ExtensionRuntime"]),
        .target(name: "TestSupport", dependencies: ["ExtensionRuntime"], path: "Tests/TestSupport"),
        .testTarget(name: "JSKitTests", dependencies: ["JSKit", "CJavaScriptCore"]),
        .testTarget(name: "ExtensionRuntimeTests", dependencies: ["ExtensionRuntime", "TestSupport"]),
    ]
)
