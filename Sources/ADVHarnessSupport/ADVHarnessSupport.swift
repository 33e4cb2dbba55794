import BrowserRuntime
import Foundation
import RuleStore
import RuntimeBench
import ScenarioKit
import WebRuntime

/// ADV's pieces the generic harness can use: the real native host behind
/// `runtime.sendNativeMessage` in App Group mode (the rule store's ``NativeBridge`` over a shared
/// rule file), registered as native host kind `adv-rule-store`.
///
/// Scenario use: `"nativeHosts": {"tools.ars.browser.adv": {"kind": "adv-rule-store",
/// "initialFile": "rules/personal-rules-v1.json"}}` — the file (optional) is copied into the
/// run's own folder, so scenarios never write into the source tree.
public enum ADVHarnessSupport {
    /// The native host kind name.
    public static let ruleStoreKind = "adv-rule-store"

    /// ADV's extension folder in a project: what a scenario without an `extension` key runs.
    public static let extensionFolder = "WebExtension"

    /// The scenario catalog of the project found from the working directory (or
    /// `ADV_PROJECT_ROOT`), with ADV's extension as the scenarios' default.
    public static func catalog() -> ScenarioCatalog? {
        ScenarioCatalog.locate().map(withADVDefaults)
    }

    /// `catalog` with ADV's extension as the scenarios' default.
    public static func withADVDefaults(_ catalog: ScenarioCatalog) -> ScenarioCatalog {
        ScenarioCatalog(projectRoot: catalog.projectRoot, defaultExtension: catalog.projectRoot.appendingPathComponent(extensionFolder))
    }

    /// Registers ADV's native host with the harness (idempotent).
    public static func register() {
        NativeHosts.register(ruleStoreKind) { options, folder, clock in
            let fileURL = folder.appendingPathComponent("personal-rules-v1.json")
            if let initial = options["initialFile"] {
                try FileManager.default.copyItem(at: URL(fileURLWithPath: initial), to: fileURL)
            }
            let bridge = NativeBridge(file: SharedRuleFile(url: fileURL), clock: clock)
            return { message in .success(String(decoding: bridge.handle(Data(message.utf8)), as: UTF8.self)) }
        }
    }
}
