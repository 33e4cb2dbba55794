import Foundation

extension NativeBridge {
    func list(_ message: BridgeMessage) throws -> [String: Any] {
        var validator = RuleValidator()
        let host = try message.optionalString("hostname").map { hostname throws(RuleStoreError) in
            try validator.normalize(hostname, at: "hostname")
        }
        let includeDeleted = try message.optionalBool("includeDeleted") ?? false
        let (data, document) = try file.snapshot()
        let records = document.collection.records.filter {
            (includeDeleted || !$0.deleted) && (host == nil || $0.hostname == host)
        }
        return ["rules": records.map(Self.recordObject), "revision": data.map(Revision.of) ?? NSNull()]
    }

    func saveBatch(_ message: BridgeMessage) throws -> [String: Any] {
        let items = try message.array("rules")
        guard (1...Self.maxBatch).contains(items.count) else {
            throw RuleStoreError.invalidDocument(
                file: nil, keyPath: "rules", reason: "a batch holds 1 to \(Self.maxBatch) rules, found \(items.count)")
        }
        // Validate the whole batch before touching the file: one bad rule cancels all.
        var validator = RuleValidator()
        var incoming: [(id: String, hostname: String, selector: String)] = []
        var seen: [String: Int] = [:]
        for (index, item) in items.enumerated() {
            let path = "rules[\(index)]"
            let entry = try BridgeMessage(item, at: path)
            let id = try entry.string("id")
            try RuleValidator.checkID(id, at: path + ".id")
            if let earlier = seen.updateValue(index, forKey: id) {
                throw RuleStoreError.invalidDocument(
                    file: nil, keyPath: path + ".id", reason: "duplicate id '\(id)' (first at rules[\(earlier)])")
            }
            let hostname = try validator.normalize(try entry.string("hostname"), at: path + ".hostname")
            let selector = try entry.string("selector")
            try RuleValidator.checkSelector(selector, at: path + ".selector")
            incoming.append((id, hostname, selector))
        }
        let now = clock()
        let (saved, skipped) = try file.update { document -> ([PersonalRule], [String]) in
            // As in the popup's bulk add, a selector already saved for the host (under
            // another id, perhaps by another process meanwhile) is skipped, not duplicated.
            var live: [String: String] = [:]
            for rule in document.collection.liveRules { live[rule.hostname + "\u{0}" + rule.selector] = rule.id }
            var saved: [PersonalRule] = [], skipped: [String] = []
            for item in incoming {
                let key = item.hostname + "\u{0}" + item.selector
                if let owner = live[key], owner != item.id {
                    skipped.append(item.id)
                    continue
                }
                // Re-sending an unchanged rule (a retry after a lost reply) keeps its stamp.
                if let existing = document.collection[item.id], !existing.deleted,
                   existing.hostname == item.hostname, existing.selector == item.selector {
                    saved.append(existing)
                    continue
                }
                let rule = document.collection.upsert(id: item.id, hostname: item.hostname, selector: item.selector, now: now)
                live[key] = rule.id
                saved.append(rule)
            }
            return (saved, skipped)
        }
        return ["saved": saved.map(Self.recordObject), "skipped": skipped, "revision": currentRevision()]
    }

    func delete(_ message: BridgeMessage) throws -> [String: Any] {
        let ids = try message.array("ids").enumerated().map { index, value throws -> String in
            guard let id = value as? String else {
                throw RuleStoreError.invalidDocument(file: nil, keyPath: "ids[\(index)]", reason: "expected a string")
            }
            return id
        }
        let now = clock()
        let (deleted, unknown) = try file.update { document -> ([String], [String]) in
            var deleted: [String] = [], unknown: [String] = []
            for id in ids {
                if document.collection.delete(id: id, now: now) != nil {
                    deleted.append(id)
                } else if document.collection[id] == nil {
                    unknown.append(id)
                }
            }
            return (deleted, unknown)
        }
        return ["deleted": deleted, "unknown": unknown, "revision": currentRevision()]
    }

    func migrate(_ message: BridgeMessage) throws -> [String: Any] {
        let source = try message.optionalString("source") ?? RuleMigration.browserLocalSource
        guard !source.isEmpty else {
            throw RuleStoreError.invalidDocument(file: nil, keyPath: "source", reason: "empty migration source")
        }
        let document = try message.object("document")
        let bytes = try JSONSerialization.data(withJSONObject: document)
        let rules: RuleCollection
        do {
            rules = try RuleCodec.decode(bytes).collection
        } catch {
            // Re-root the key path under `document` so the extension sees where in its message.
            guard case .invalidDocument(_, let keyPath, let reason) = error else { throw error }
            throw RuleStoreError.invalidDocument(
                file: nil, keyPath: keyPath.isEmpty ? "document" : "document." + keyPath, reason: reason)
        }
        switch try RuleMigration.merge(rules, source: source, into: file) {
        case .migrated(let changed):
            return ["migrated": true, "changed": changed, "revision": currentRevision()]
        case .alreadyMigrated:
            return ["migrated": false, "alreadyMigrated": true, "revision": currentRevision()]
        }
    }

    private func currentRevision() -> Any {
        file.state().revision ?? NSNull()
    }
}
