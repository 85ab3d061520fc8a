import GRDB
import Testing
@testable import ParlorCore

/// A batch that meets a full disk (SQLite's max_page_count stands in for it): a request
/// answered with an error stored nothing, and nothing stored went unacknowledged.
@Suite struct DiskFullTests {
    /// The schema's pages and room for a few small rows: each table and index takes a
    /// page of its own (v19-direct's two tables and index did not fit in 48).
    static let pages = 52

    @Test func aFullDiskNeverCommitsPartOfABatch() throws {
        let h = try EngineHarness(databasePath: { $0 + "/parlor.sqlite" }, maxPages: Self.pages)
        h.register(1, "Ana")
        let cid = h.conversation(owner: 1)
        let huge = String(repeating: "€", count: 9_000)  // 27 KB: several pages each
        var frames: [(ConnectionID, String)] = []
        let texts = ["small", huge, huge, huge, huge, huge, "small"]
        for (i, text) in texts.enumerated() {
            frames.append((1, #"{"type":"send","id":"s\#(i)","conversationId":"\#(cid)","clientId":"k\#(i)","message":{"kind":"text","text":"\#(text)"}}"#))
        }
        let replies = EngineHarness.frames(h.batch(frames)).filter { $0["re"] != nil }
        let acked = Set(replies.filter { $0["type"] == .string("result") }.compactMap { $0["re"]?.string })
        let refused = replies.filter { $0["type"] == .string("error") }
        #expect(!refused.isEmpty, "the cap was meant to be hit")

        // What is stored is exactly what was acknowledged.
        let page = h.request(1, #"{"type":"history","id":"h","conversationId":"\#(cid)","limit":200}"#)
        let stored = Set((page["result"]?["messages"]?.array ?? []).compactMap { $0["clientId"]?.string })
        let ackedClientIds = Set(acked.map { "k" + $0.dropFirst() })
        #expect(stored == ackedClientIds)
    }

    /// On a full disk a write is refused as `disk_full`, and the reads of the same
    /// batch are answered: they were refused with it as `internal` (an outside review).
    @Test func aFullDiskRefusesWritesAndAnswersReads() throws {
        let h = try EngineHarness(databasePath: { $0 + "/parlor.sqlite" }, maxPages: Self.pages)
        h.register(1, "Ana")
        let cid = h.conversation(owner: 1)
        let huge = String(repeating: "€", count: 9_000)
        var frames: [(ConnectionID, String)] = []
        for i in 0..<12 {
            frames.append((1, #"{"type":"send","id":"s\#(i)","conversationId":"\#(cid)","clientId":"k\#(i)","message":{"kind":"text","text":"\#(huge)"}}"#))
            frames.append((1, #"{"type":"history","id":"h\#(i)","conversationId":"\#(cid)","limit":5}"#))
        }
        let replies = EngineHarness.frames(h.batch(frames)).filter { $0["re"] != nil }
        let reads = replies.filter { $0["re"]?.string?.hasPrefix("h") == true }
        let refused = replies.filter { $0["re"]?.string?.hasPrefix("s") == true && $0["type"] == .string("error") }
        #expect(!refused.isEmpty, "the cap was meant to be hit")
        #expect(refused.allSatisfy { $0["code"] == .string("disk_full") && $0["retryAfterMs"] != nil })
        #expect(reads.count == 12 && reads.allSatisfy { $0["type"] == .string("result") })
    }

    /// A sign-out in a batch whose commit failed (a full disk, in life; here a deferred
    /// foreign key) signed out nothing: the person's other connections stayed marked
    /// signed out (every request `invalid_token`) though the batch was undone.
    @Test func aSignOutInAnUndoneBatchSignsNobodyOut() throws {
        let h = try EngineHarness(databasePath: { $0 + "/parlor.sqlite" })
        h.register(3, "Admin")  // the first account: Ana is not the only admin
        let (_, token) = h.register(1, "Ana")
        h.request(2, #"{"type":"auth","id":"a","token":"\#(token)"}"#)
        let cid = h.conversation(owner: 1)
        let db = try DatabaseQueue(path: h.root + "/parlor.sqlite")
        try db.write { db in
            try db.execute(sql: """
                CREATE TABLE refuse_at_commit (user_id TEXT REFERENCES users(id) DEFERRABLE INITIALLY DEFERRED);
                CREATE TRIGGER refuse_deletion AFTER UPDATE OF deleted_at ON users
                BEGIN INSERT INTO refuse_at_commit VALUES ('nobody'); END
                """)
        }
        let deleted = h.request(1, #"{"type":"account.delete","id":"d","confirm":"Ana"}"#)
        #expect(deleted["code"] == .string("internal"))
        let other = h.request(2, #"{"type":"history","id":"h","conversationId":"\#(cid)","limit":1}"#)
        #expect(other["type"] == .string("result"), "\(other)")
    }

    /// Sends run without a savepoint each. One that fails after it has written (here a
    /// session update, then an insert the database refuses) cannot be undone alone: the
    /// batch is undone and run again with a savepoint per request, so it fails alone.
    @Test func aSendThatFailsAfterWritingFailsAlone() throws {
        let h = try EngineHarness(databasePath: { $0 + "/parlor.sqlite" })
        h.register(1, "Ana")
        let cid = h.conversation(owner: 1)
        try Self.refuseInsertsOf(clientId: "bad", h)
        let text = { (k: String) in Self.text(cid, k) }
        let replies = EngineHarness.frames(h.batch([
            text("before"), (1, SessionTests().appSend(cid, "bad", session: "game", base: 0)), text("after"),
        ])).filter { $0["re"] != nil }
        #expect(replies.first { $0["re"] == .string("before") }?["type"] == .string("result"))
        #expect(replies.first { $0["re"] == .string("after") }?["type"] == .string("result"))
        #expect(replies.first { $0["re"] == .string("bad") }?["code"] == .string("internal"))

        // The failed send's session update was undone: the session starts at version 1.
        let first = h.request(1, SessionTests().appSend(cid, "good", session: "game", base: 0))
        #expect(first["result"]?["message"]?["session"]?["version"] == .number(1))
        let page = h.request(1, #"{"type":"history","id":"h","conversationId":"\#(cid)","limit":10}"#)
        #expect((page["result"]?["messages"]?.array ?? []).compactMap { $0["clientId"]?.string } == ["before", "after", "good"])
    }

    /// A batch undone and run again took its rate-limit tokens once a run: a sender with
    /// four sends left was refused the third send of a batch that one send made run again.
    @Test func aBatchRunAgainTakesItsRateLimitTokensOnce() throws {
        var settings = EngineSettings.openRegistration
        settings.sendsPerUser = Rate(4, per: 3600)
        let h = try EngineHarness(databasePath: { $0 + "/parlor.sqlite" }, settings: settings)
        h.register(1, "Ana")
        let cid = h.conversation(owner: 1)
        try Self.refuseInsertsOf(clientId: "bad", h)
        let text = { (k: String) in Self.text(cid, k) }
        let replies = EngineHarness.frames(h.batch([
            text("a"), (1, SessionTests().appSend(cid, "bad", session: "game", base: 0)), text("b"),
        ])).filter { $0["re"] != nil }
        #expect(replies.first { $0["re"] == .string("a") }?["type"] == .string("result"))
        #expect(replies.first { $0["re"] == .string("b") }?["type"] == .string("result"), "\(replies)")
        // a, bad and b took three: one is left, then none.
        #expect(h.request(1, text("c").1)["type"] == .string("result"))
        #expect(h.request(1, text("d").1)["code"] == .string("rate_limited"))
    }

    /// The database refuses to store a message with this clientId, after whatever its
    /// send wrote before the insert (a session update): a failure after a write.
    static func refuseInsertsOf(clientId: String, _ h: EngineHarness) throws {
        try DatabaseQueue(path: h.root + "/parlor.sqlite").write { db in
            try db.execute(sql: """
                CREATE TRIGGER refuse_bad BEFORE INSERT ON messages WHEN NEW.client_id = '\(clientId)'
                BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
                """)
        }
    }

    static func text(_ cid: String, _ k: String) -> (ConnectionID, String) {
        (1, #"{"type":"send","id":"\#(k)","conversationId":"\#(cid)","clientId":"\#(k)","message":{"kind":"text","text":"hi"}}"#)
    }
}
