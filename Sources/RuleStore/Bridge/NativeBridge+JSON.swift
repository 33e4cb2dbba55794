import Foundation

extension NativeBridge {
    static func recordObject(_ rule: PersonalRule) -> [String: Any] {
        ["id": rule.id, "hostname": rule.hostname, "selector": rule.selector,
         "modifiedAt": rule.modifiedAt, "deleted": rule.deleted]
    }

    static func stateObject(_ state: SharedFileState) -> [String: Any] {
        let status: String
        switch state.status {
        case .missing: status = "missing"
        case .ok: status = "ok"
        case .corrupt: status = "corrupt"
        case .unreadable: status = "unreadable"
        }
        return [
            "status": status, "file": URL(fileURLWithPath: state.path).lastPathComponent, "bytes": state.bytes,
            "revision": state.revision ?? NSNull(), "rules": state.liveCount, "tombstones": state.tombstoneCount,
            "migrations": state.migrations, "problem": state.problem ?? NSNull(), "limit": RuleCodec.sizeLimit,
        ]
    }

    static func failure(type: String?, requestID: Any?, code: String, message: String) -> [String: Any] {
        var reply: [String: Any] = ["ok": false, "error": ["code": code, "message": message]]
        if let type { reply["type"] = type }
        if let requestID { reply["requestId"] = requestID }
        return reply
    }

    static func code(_ error: RuleStoreError) -> String {
        switch error {
        case .invalidDocument: return "invalid-message"
        case .collectionTooLarge: return "too-large"
        case .corruptFile: return "corrupt-file"
        case .fileSystem: return "file-system"
        }
    }

    /// Sorted keys, so replies are byte-stable for traces and tests.
    static func encode(_ reply: [String: Any]) -> Data {
        (try? JSONSerialization.data(withJSONObject: reply, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data(#"{"error":{"code":"internal","message":"reply could not be encoded"},"ok":false}"#.utf8)
    }
}
