import Foundation
import TestSupport
import Testing
@testable import RuleStore

@Suite struct NativeBridgeTests {
    final class Clock: @unchecked Sendable {
        var now: Int64 = 1_767_225_600_000
    }

    func makeBridge() throws -> (NativeBridge, SharedRuleFile, Clock) {
        let file = SharedRuleFile(url: try Support.temporaryDirectory().appendingPathComponent("rules.json"))
        let clock = Clock()
        return (NativeBridge(file: file, clock: { clock.now }), file, clock)
    }

    func send(_ bridge: NativeBridge, _ json: String) throws -> [String: Any] {
        let reply = bridge.handle(Data(json.utf8))
        return try #require(try JSONSerialization.jsonObject(with: reply) as? [String: Any])
    }

    func errorMessage(_ reply: [String: Any]) -> String? {
        (reply["error"] as? [String: Any])?["message"] as? String
    }

    @Test func saveBatchThenListReturnsTheRulesForAHost() throws {
        let (bridge, file, _) = try makeBridge()
        let saved = try send(bridge, #"""
            {"type":"saveBatch","requestId":7,"rules":[
              {"id":"r1","hostname":"News.Example.com","selector":"#sidebar-ad"},
              {"id":"r2","hostname":"news.example.com","selector":".sponsored-card"},
              {"id":"r3","hostname":"other.example.org","selector":"aside .advertisement"}]}
            """#)
        #expect(saved["ok"] as? Bool == true)
        #expect(saved["requestId"] as? Int == 7)
        #expect((saved["saved"] as? [Any])?.count == 3)
        let listed = try send(bridge, #"{"type":"list","hostname":"news.example.com"}"#)
        let rules = try #require(listed["rules"] as? [[String: Any]])
        #expect(rules.map { $0["id"] as? String } == ["r1", "r2"])
        #expect(rules.first?["modifiedAt"] as? Int == 1_767_225_600_000)
        #expect(listed["revision"] as? String == file.state().revision)
        #expect(try file.read().collection.count == 3)
    }

    @Test func selectorsAlreadySavedForTheHostAreSkipped() throws {
        let (bridge, file, _) = try makeBridge()
        _ = try send(bridge, #"{"type":"saveBatch","rules":[{"id":"r1","hostname":"example.com","selector":".ad"}]}"#)
        let reply = try send(bridge, #"""
            {"type":"saveBatch","rules":[
              {"id":"r2","hostname":"example.com","selector":".ad"},
              {"id":"r3","hostname":"example.org","selector":".ad"},
              {"id":"r4","hostname":"example.org","selector":".ad"},
              {"id":"r1","hostname":"example.com","selector":".ad"}]}
            """#)
        #expect(reply["skipped"] as? [String] == ["r2", "r4"])
        #expect((reply["saved"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["r3", "r1"])
        #expect(Set(try file.read().collection.liveRules.map(\.id)) == ["r1", "r3"])
    }

    @Test func resendingAnUnchangedBatchChangesNothing() throws {
        let (bridge, file, clock) = try makeBridge()
        let batch = #"{"type":"saveBatch","rules":[{"id":"r1","hostname":"example.com","selector":".ad"}]}"#
        _ = try send(bridge, batch)
        let bytes = try Data(contentsOf: file.url)
        clock.now += 60_000
        let again = try send(bridge, batch)
        #expect((again["saved"] as? [[String: Any]])?.first?["modifiedAt"] as? Int == 1_767_225_600_000)
        #expect(try Data(contentsOf: file.url) == bytes)
    }

    @Test func oneInvalidRuleCancelsTheWholeBatch() throws {
        let (bridge, file, _) = try makeBridge()
        let reply = try send(bridge, #"""
            {"type":"saveBatch","rules":[
              {"id":"ok","hostname":"example.com","selector":".fine"},
              {"id":"bad","hostname":"example.com","selector":"   "}]}
            """#)
        #expect(reply["ok"] as? Bool == false)
        #expect(errorMessage(reply) == "rules[1].selector: empty selector")
        #expect(file.state().status == .missing, "nothing was written")
    }

    @Test func deleteLeavesTombstonesAndReportsUnknownIds() throws {
        let (bridge, file, clock) = try makeBridge()
        _ = try send(bridge, #"{"type":"saveBatch","rules":[{"id":"r1","hostname":"example.com","selector":".ad"}]}"#)
        clock.now += 5_000
        let reply = try send(bridge, #"{"type":"delete","ids":["r1","nope"]}"#)
        #expect(reply["deleted"] as? [String] == ["r1"])
        #expect(reply["unknown"] as? [String] == ["nope"])
        let rule = try #require(try file.read().collection["r1"])
        #expect(rule.deleted && rule.modifiedAt == 1_767_225_605_000)
        let live = try send(bridge, #"{"type":"list"}"#)
        #expect((live["rules"] as? [Any])?.isEmpty == true)
        let all = try send(bridge, #"{"type":"list","includeDeleted":true}"#)
        #expect((all["rules"] as? [Any])?.count == 1)
    }

    @Test func stateReportsCountsRevisionAndCorruption() throws {
        let (bridge, file, _) = try makeBridge()
        var state = try #require(try send(bridge, #"{"type":"state"}"#)["state"] as? [String: Any])
        #expect(state["status"] as? String == "missing")
        _ = try send(bridge, #"{"type":"saveBatch","rules":[{"id":"a","hostname":"example.com","selector":".x"},{"id":"b","hostname":"example.com","selector":".y"}]}"#)
        _ = try send(bridge, #"{"type":"delete","ids":["b"]}"#)
        state = try #require(try send(bridge, #"{"type":"state"}"#)["state"] as? [String: Any])
        #expect(state["status"] as? String == "ok")
        #expect(state["rules"] as? Int == 1)
        #expect(state["tombstones"] as? Int == 1)
        #expect(state["limit"] as? Int == 500_000)
        #expect(state["revision"] as? String == file.state().revision)
        try Data("{\"format\":\"adv-personal-rules\",\"version\":1,\"rules\":[".utf8).write(to: file.url)
        state = try #require(try send(bridge, #"{"type":"state"}"#)["state"] as? [String: Any])
        #expect(state["status"] as? String == "corrupt")
        #expect((state["problem"] as? String)?.hasPrefix("not valid json") == true)
        let refused = try send(bridge, #"{"type":"saveBatch","rules":[{"id":"c","hostname":"example.com","selector":".z"}]}"#)
        #expect((refused["error"] as? [String: Any])?["code"] as? String == "corrupt-file")
    }

    /// Another process (the native app) changes the file; the next list shows it with a new revision.
    @Test func anotherWritersChangeIsVisibleThroughANewRevision() throws {
        let (bridge, file, _) = try makeBridge()
        _ = try send(bridge, #"{"type":"saveBatch","rules":[{"id":"a","hostname":"example.com","selector":".x"}]}"#)
        let before = try send(bridge, #"{"type":"list"}"#)["revision"] as? String
        try SharedRuleFile(url: file.url).update {
            $0.collection.upsert(id: "from-app", hostname: "example.com", selector: ".app", now: 1)
        }
        let after = try send(bridge, #"{"type":"list"}"#)
        #expect(after["revision"] as? String != before)
        #expect((after["rules"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["a", "from-app"])
    }

    @Test func migrateMergesBrowserLocalRulesWithDeletionMarkersOnce() throws {
        let (bridge, file, _) = try makeBridge()
        let fixture = try String(contentsOf: Support.fixtureURL("rules/personal-rules-v1.json"), encoding: .utf8)
        let message = #"{"type":"migrate","document":"# + fixture + "}"
        let first = try send(bridge, message)
        #expect(first["migrated"] as? Bool == true)
        #expect(first["changed"] as? Int == 6)
        let document = try file.read()
        #expect(document.collection.tombstoneCount == 2)
        #expect(document.migrations == ["browser-local"])
        let bytes = try Data(contentsOf: file.url)
        let second = try send(bridge, message)
        #expect(second["migrated"] as? Bool == false)
        #expect(second["alreadyMigrated"] as? Bool == true)
        #expect(try Data(contentsOf: file.url) == bytes)
    }

    @Test(arguments: [
        ("not json", "message is not valid json"),
        (#"[1]"#, "message must be a json object"),
        (#"{"type":"fly"}"#, "type: 'fly' is not one of list, saveBatch, delete, state, migrate"),
        (#"{"type":"saveBatch"}"#, "missing key 'rules'"),
        (#"{"type":"saveBatch","rules":[]}"#, "rules: a batch holds 1 to 1000 rules, found 0"),
        (#"{"type":"saveBatch","rules":[{"id":"a","hostname":"http://x.com","selector":".x"}]}"#,
         "rules[0].hostname: invalid hostname 'http://x.com': contains a scheme; enter only the hostname, e.g. 'ads.example.com'"),
        (#"{"type":"saveBatch","rules":[{"id":"a","hostname":"x.com","selector":".x"},{"id":"a","hostname":"x.com","selector":".y"}]}"#,
         "rules[1].id: duplicate id 'a' (first at rules[0])"),
        (#"{"type":"delete","ids":[3]}"#, "ids[0]: expected a string"),
        (#"{"type":"list","includeDeleted":"yes"}"#, "includeDeleted: expected true or false"),
        (#"{"type":"migrate","document":{"format":"adv-personal-rules","version":1,"rules":[{"id":"a"}]}}"#,
         "document.rules[0]: missing key 'hostname'"),
    ])
    func badMessagesGetOneClearErrorAndWriteNothing(json: String, message: String) throws {
        let (bridge, file, _) = try makeBridge()
        let reply = try send(bridge, json)
        #expect(reply["ok"] as? Bool == false)
        #expect(errorMessage(reply) == message)
        #expect(file.state().status == .missing)
    }

    @Test func repliesAreByteStable() throws {
        let (bridge, _, _) = try makeBridge()
        _ = try send(bridge, #"{"type":"saveBatch","rules":[{"id":"a","hostname":"example.com","selector":".x"}]}"#)
        let reply = String(decoding: bridge.handle(Data(#"{"type":"list"}"#.utf8)), as: UTF8.self)
        #expect(reply.hasPrefix(#"{"ok":true,"revision":""#))
        #expect(reply.contains(#""rules":[{"deleted":false,"hostname":"example.com","id":"a","modifiedAt":1767225600000,"selector":".x"}]"#))
    }
}
