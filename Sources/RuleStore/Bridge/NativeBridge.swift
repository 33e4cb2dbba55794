import Foundation

/// The App Group mode native handler: answers the extension's rule messages over the shared rule file.
///
/// JSON in, JSON out; the protocol is in fixtures/rules/README.md. Every request
/// is validated completely before anything is written, so a bad batch changes nothing.
/// The Safari extension handler class is only a shell that passes messages here.
public struct NativeBridge: Sendable {
    /// Largest `saveBatch`, matching the popup's bulk-add limit.
    public static let maxBatch = 1000

    /// The shared rule file.
    public let file: SharedRuleFile
    /// Milliseconds since 1970 used to stamp edits (the app passes the system clock).
    public let clock: @Sendable () -> Int64

    /// A bridge over `file`, stamping edits with `clock`.
    public init(file: SharedRuleFile, clock: @escaping @Sendable () -> Int64) {
        self.file = file
        self.clock = clock
    }

    /// Handles one message given as JSON bytes and returns the JSON reply.
    ///
    /// Never throws: every failure becomes `{"ok":false,"error":{"code":…,"message":…}}`.
    public func handle(_ message: Data) -> Data {
        let reply: [String: Any]
        do {
            reply = handle(object: try JSONSerialization.jsonObject(with: message))
        } catch {
            reply = Self.failure(type: nil, requestID: nil, code: "invalid-message", message: "message is not valid json")
        }
        return Self.encode(reply)
    }

    /// Handles one message already parsed from JSON (what Safari hands the extension handler).
    public func handle(object: Any) -> [String: Any] {
        guard let message = object as? [String: Any] else {
            return Self.failure(type: nil, requestID: nil, code: "invalid-message", message: "message must be a json object")
        }
        let requestID = message["requestId"]
        let type = message["type"] as? String
        do {
            var reply: [String: Any]
            switch type {
            case "list": reply = try list(BridgeMessage(message))
            case "saveBatch": reply = try saveBatch(BridgeMessage(message))
            case "delete": reply = try delete(BridgeMessage(message))
            case "state": reply = ["state": Self.stateObject(file.state())]
            case "migrate": reply = try migrate(BridgeMessage(message))
            default:
                let shown = type.map { "'\($0)'" } ?? "missing"
                return Self.failure(
                    type: type, requestID: requestID, code: "unknown-type",
                    message: "type: \(shown) is not one of list, saveBatch, delete, state, migrate")
            }
            reply["ok"] = true
            reply["type"] = type
            if let requestID { reply["requestId"] = requestID }
            return reply
        } catch let error as RuleStoreError {
            return Self.failure(type: type, requestID: requestID, code: Self.code(error), message: error.description)
        } catch {
            return Self.failure(type: type, requestID: requestID, code: "internal", message: "\(error)")
        }
    }
}
