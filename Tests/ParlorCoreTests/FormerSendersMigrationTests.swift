import Foundation
import GRDB
import Testing
@testable import ParlorCore

/// Migration v14-former-senders: those who left before v13 kept no record, so what they
/// had sent showed as "Someone" after an upgrade.
@Suite struct FormerSendersMigrationTests {
    static func send(_ cid: String, _ clientId: String) -> String {
        #"{"type":"send","id":"s","conversationId":"\#(cid)","clientId":"\#(clientId)","message":{"kind":"text","text":"hi"}}"#
    }

    static func members(_ cid: String, _ ids: [String]) -> String {
        let list = ids.map { "\"\($0)\"" }.joined(separator: ",")
        return #"{"type":"members","id":"m","conversationId":"\#(cid)","userIds":[\#(list)]}"#
    }

    @Test func sendersWhoLeftBeforeV13AreNamedAfterTheUpgrade() throws {
        let dir = NSTemporaryDirectory() + "parlor-former-" + Secrets.hex(Secrets.randomBytes(4))
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/parlor.sqlite"
        var cid = "", ana = "", ben = "", cy = "", anaToken = ""
        do {
            let h = try EngineHarness(databasePath: { _ in path })
            (ana, anaToken) = h.register(1, "Ana")
            ben = h.register(2, "Ben").0
            cy = h.register(3, "Cy").0
            cid = h.conversation(owner: 1, joiners: [2, 3])
            #expect(h.request(2, Self.send(cid, "b-1"))["type"] == .string("result"))
            #expect(h.request(2, #"{"type":"conversations.leave","id":"l","conversationId":"\#(cid)"}"#)["type"] == .string("result"))
        }
        // As a database of v12 has it: Ben left, and nobody wrote it down.
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: """
                DELETE FROM former_members;
                DELETE FROM grdb_migrations WHERE identifier = 'v14-former-senders';
                """)
        }
        #expect(try SQLiteStore(path: path).upgrade?.migrations == ["v14-former-senders"])
        let h = try EngineHarness(databasePath: { _ in path })
        #expect(h.request(1, #"{"type":"auth","id":"a","token":"\#(anaToken)"}"#)["type"] == .string("result"))
        let r = h.request(1, Self.members(cid, [ana, ben, cy]))["result"]
        #expect(r?["members"]?.array?.count == 2, "Ana and Cy are members")
        let former = r?["formerMembers"]?.array ?? []
        #expect(former.count == 1 && former.first?["userId"] == .string(ben) && former.first?["name"] == .string("Ben"),
                "Ben sent, then left: named")
    }
}
