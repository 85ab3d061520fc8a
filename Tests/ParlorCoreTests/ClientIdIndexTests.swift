import CWALBuffer
import Foundation
import GRDB
import Testing
@testable import ParlorCore

/// The index of clientIds, id first (migration v10-client-ids-by-time).
@Suite struct ClientIdIndexTests {
    static let people = 1...60

    static func send(_ cid: String, _ clientId: String, _ text: String = "hi") -> String {
        #"{"type":"send","id":"s","conversationId":"\#(cid)","clientId":"\#(clientId)","message":{"kind":"text","text":"\#(text)"}}"#
    }

    /// As the web client makes them: the time first (UUID version 7).
    static func clientId(ms: Int, person: Int) -> String {
        String(format: "%08x-%04x-7%03x-8000-%012x", ms >> 16, ms & 0xffff, person, person)
    }

    /// Sixty people each send a message in one batch, with the time-ordered clientIds
    /// the web client makes: the commit writes a handful of pages, not one per sender
    /// (indexed sender first, each send landed in its sender's own part of the index).
    @Test func aBatchFromManySendersWritesAFewPages() throws {
        var settings = EngineSettings.openRegistration
        settings.sendsPerUser = .unlimited
        let h = try EngineHarness(databasePath: { $0 + "/parlor.sqlite" }, settings: settings)
        for p in Self.people { h.register(ConnectionID(p), "P\(p)") }
        let cid = h.conversation(owner: 1, joiners: Self.people.dropFirst().map { ConnectionID($0) })
        var ms = 1_800_000_000_000
        func round() -> [EngineAction] {
            ms += 1
            return h.batch(Self.people.map { p in (ConnectionID(p), Self.send(cid, Self.clientId(ms: ms, person: p))) })
        }
        // Enough ids per sender that, sender first, each sender's would fill pages of their own.
        for _ in 0..<60 { _ = round() }
        let wal = h.root + "/parlor.sqlite-wal"
        let before = parlor_walbuf_counters(wal)
        let results = EngineHarness.frames(round()).filter { $0["type"] == .string("result") }
        let after = parlor_walbuf_counters(wal)
        #expect(results.count == Self.people.count)
        // SQLite writes each page of a commit as a frame header and the page. Measured:
        // 15 pages id first (the rows' and the indexes' last pages), 73 sender first.
        let pages = (after.asked - before.asked) / 2
        #expect(pages >= 1 && pages <= 24, "a batch of \(Self.people.count) sends wrote \(pages) pages")
    }

    /// A database from before v10: a message sent then and sent again now (its ack was
    /// lost) is still answered with the original, and its clientId is still refused for
    /// a different message.
    @Test func clientIdsStoredBeforeTheMigrationStillCount() throws {
        let dir = NSTemporaryDirectory() + "parlor-cid-" + Secrets.hex(Secrets.randomBytes(4))
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/parlor.sqlite"
        var cid = "", token = "", seq: Int?
        do {
            let h = try EngineHarness(databasePath: { _ in path })
            token = h.register(1, "Ana").1
            cid = h.conversation(owner: 1)
            seq = h.request(1, Self.send(cid, "old-1", "before"))["result"]?["message"]?["seq"]?.int
        }
        #expect(seq != nil)
        // Back to v9's index, as a database of the previous release has it.
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: """
                DROP INDEX messages_by_client_id;
                CREATE UNIQUE INDEX messages_by_client_id ON messages(sender_id, client_id);
                DELETE FROM grdb_migrations WHERE identifier = 'v10-client-ids-by-time';
                """)
        }
        #expect(try SQLiteStore(path: path).upgrade?.migrations == ["v10-client-ids-by-time"], "applied, and said")
        #expect(try SQLiteStore(path: path).upgrade?.migrations == [], "once")
        let h = try EngineHarness(databasePath: { _ in path })
        let columns = try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM pragma_index_info('messages_by_client_id') ORDER BY seqno")
        }
        #expect(columns == ["client_id", "sender_id"])
        #expect(h.request(1, #"{"type":"auth","id":"a","token":"\#(token)"}"#)["type"] == .string("result"))
        #expect(h.request(1, Self.send(cid, "old-1", "before"))["result"]?["message"]?["seq"]?.int == seq)
        #expect(h.request(1, Self.send(cid, "old-1", "something else"))["code"] == .string("client_id_reused"))
    }
}
