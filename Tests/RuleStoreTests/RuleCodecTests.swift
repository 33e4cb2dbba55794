import Foundation
import TestSupport
import Testing
@testable import RuleStore

@Suite struct RuleCodecTests {
    @Test func fixtureDecodesToTheDocumentedRecords() throws {
        let data = try Data(contentsOf: Support.fixtureURL("rules/personal-rules-v1.json"))
        let document = try RuleCodec.decode(data, file: "personal-rules-v1.json")
        #expect(document.collection.count == 6)
        #expect(document.collection.tombstoneCount == 2)
        let first = try #require(document.collection["0b7c5a1e-3f5d-4c4e-9a57-0d5f1e2b9c10"])
        #expect(first == Support.rule(
            "0b7c5a1e-3f5d-4c4e-9a57-0d5f1e2b9c10", host: "news.example.com",
            selector: "#sidebar-ad", at: 1_767_225_600_000))
        #expect(document.collection["7c1d2e3f-4a5b-4c6d-8e9f-a0b1c2d3e4f5"]?.selector
            == "div[data-ad-slot=\"top\"] > a")
        #expect(document.collection["9e8d7c6b-5a4f-4e3d-9c2b-1a0f9e8d7c6b"]?.selector
            == "[aria-label=\"Werbung – Anzeige\"]")
        #expect(document.collection["legacy:local-42"]?.deleted == true)
    }

    @Test func fixtureIsInCanonicalForm() throws {
        let data = try Data(contentsOf: Support.fixtureURL("rules/personal-rules-v1.json"))
        let document = try RuleCodec.decode(data)
        #expect(RuleCodec.encode(document) == data)
    }

    @Test func roundTripKeepsEveryFieldAndMigrations() throws {
        let collection = RuleCollection([
            Support.rule("a", selector: "a[title=\"x\\\\y\"]\u{1F600}", at: 9_007_199_254_740_991),
            Support.rule("b", host: "sub.example.org", at: 0, deleted: true),
        ])
        let document = RuleDocument(collection: collection, migrations: ["browser-local"])
        let decoded = try RuleCodec.decode(RuleCodec.encode(document))
        #expect(decoded == document)
    }

    @Test func emptyCollectionRoundTrips() throws {
        let decoded = try RuleCodec.decode(RuleCodec.encode(RuleDocument()))
        #expect(decoded == RuleDocument())
    }

    @Test(arguments: [
        (#"{"format":"adv-personal-rules","version":1,"rules":[{"id":"a","hostname":"Example.com","selector":".x","modifiedAt":1,"deleted":false}]}"#,
         "f.json: rules[0].hostname: hostname 'Example.com' is not normalized; write 'example.com'"),
        (#"{"format":"adv-personal-rules","version":1,"rules":[{"id":"a","hostname":"a.com","selector":".x","modifiedAt":1,"deleted":false},{"id":"b","hostname":"a.com","selector":".x","modifiedAt":1}]}"#,
         "f.json: rules[1]: missing key 'deleted'"),
        (#"{"format":"adv-personal-rules","version":1,"rules":[{"id":"a","hostname":"a.com","selector":".x","modifiedAt":"1","deleted":false}]}"#,
         "f.json: rules[0].modifiedAt: expected an integer, found a string"),
        (#"{"format":"adv-personal-rules","version":1,"rules":[{"id":"a","hostname":"a.com","selector":"  ","modifiedAt":1,"deleted":false}]}"#,
         "f.json: rules[0].selector: empty selector"),
        (#"{"format":"adv-personal-rules","version":1,"rules":[{"id":"a b","hostname":"a.com","selector":".x","modifiedAt":1,"deleted":false}]}"#,
         "f.json: rules[0].id: id 'a b' must be 1 to 128 characters of A-Z a-z 0-9 . _ : -"),
        (#"{"format":"adv-personal-rules","version":1,"rules":[{"id":"a","hostname":"a.com","selector":".x","modifiedAt":-5,"deleted":false}]}"#,
         "f.json: rules[0].modifiedAt: -5 is outside 0...9007199254740991 milliseconds"),
        (#"{"format":"adv-personal-rules","version":1,"rules":[{"id":"a","hostname":"a.com","selector":".x","modifiedAt":1,"deleted":false},{"id":"a","hostname":"a.com","selector":".y","modifiedAt":2,"deleted":false}]}"#,
         "f.json: rules[1].id: duplicate id 'a' (first at rules[0])"),
        (#"{"format":"adv-personal-rules","version":2,"rules":[]}"#,
         "f.json: version: unsupported version 2; this build reads version 1"),
        (#"{"format":"something-else","version":1,"rules":[]}"#,
         "f.json: format: expected 'adv-personal-rules', found 'something-else'"),
        (#"{"format":"adv-personal-rules","version":1}"#,
         "f.json: missing key 'rules'"),
        ("", "f.json: empty file (truncated?)"),
    ])
    func invalidDocumentsNameFileAndKeyPath(json: String, message: String) {
        #expect(throws: RuleStoreError.self) { try RuleCodec.decode(Data(json.utf8), file: "f.json") }
        do {
            _ = try RuleCodec.decode(Data(json.utf8), file: "f.json")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func truncatedDocumentIsReportedAsInvalidJSON() throws {
        let data = try Data(contentsOf: Support.fixtureURL("rules/personal-rules-v1.json"))
        let truncated = data.prefix(data.count / 2)
        do {
            _ = try RuleCodec.decode(truncated, file: "cut.json")
            Issue.record("a truncated document decoded")
        } catch {
            #expect(error.description.hasPrefix("cut.json: not valid json"))
        }
    }

    @Test func collectionOverTheLimitIsRefusedWithItsSize() {
        // ~114 bytes a record: 5,000 records is over 500,000 bytes.
        let records = (0..<5_000).map {
            Support.rule(String(format: "id-%06d", $0), host: "www.example.com", selector: ".advert-slot-\($0)")
        }
        let collection = RuleCollection(records)
        let size = RuleCodec.encode(RuleDocument(collection: collection)).count
        #expect(size > RuleCodec.sizeLimit)
        #expect(throws: RuleStoreError.collectionTooLarge(file: nil, bytes: size, limit: 500_000)) {
            try RuleCodec.recordBytes(collection)
        }
        let fits = RuleCollection(records.prefix(1_000))
        #expect(throws: Never.self) { try RuleCodec.recordBytes(fits) }
    }
}
