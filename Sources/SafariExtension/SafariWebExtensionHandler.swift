// Apple-only: compiled into the Xcode Safari Web Extension target, never by the
// Linux package build (Package.swift declares no target for this folder). All
// behaviour lives in RuleStore's NativeBridge, which the Linux tests exercise.
#if canImport(SafariServices)
import Foundation
import RuleStore
import SafariServices

/// Passes the extension's `browser.runtime.sendNativeMessage` calls to `NativeBridge`.
final class SafariWebExtensionHandler: NSObject, NSExtensionRequestHandling {
    /// The App Group shared by the app and the extension (set by the packaging tool).
    private static let appGroup = Bundle.main.object(forInfoDictionaryKey: "ADVAppGroup") as? String
    /// The shared rule file's name inside the group container.
    private static let fileName = "personal-rules-v1.json"

    func beginRequest(with context: NSExtensionContext) {
        let item = context.inputItems.first as? NSExtensionItem
        let message = item?.userInfo?[SFExtensionMessageKey] ?? NSNull()
        let reply: [String: Any]
        if let fields = message as? [String: Any], fields["type"] as? String == "guide" {
            // The popup's guide (WebExtension/popup/guide.js). The Foundation Models session is not
            // built into this version: the answer says the model is unavailable, and the popup's
            // deterministic guide ranks and explains from the same evidence.
            reply = ["ok": false, "type": "guide",
                     "error": ["code": "model-unavailable", "message": "this version of the ADV app has no on-device guide"]]
        } else if let group = Self.appGroup,
           let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: group) {
            let file = SharedRuleFile(url: container.appendingPathComponent(Self.fileName))
            let bridge = NativeBridge(file: file, clock: { Int64(Date().timeIntervalSince1970 * 1000) })
            reply = bridge.handle(object: message)
        } else {
            reply = ["ok": false, "error": ["code": "no-app-group",
                                            "message": "no signed app group is configured; rules stay browser-local"]]
        }
        let response = NSExtensionItem()
        response.userInfo = [SFExtensionMessageKey: reply]
        context.completeRequest(returningItems: [response], completionHandler: nil)
    }
}
#endif
