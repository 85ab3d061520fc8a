import Foundation
import GRDB
import Testing
@testable import ParlorCore

@Suite struct DeviceTests {
    @Test func aDeviceLinkExpires() throws {
        let h = try EngineHarness()
        _ = h.register(1, "Ana")
        let link = h.request(1, #"{"type":"devices.createLink","id":"l"}"#)["result"]
        let code = link?["code"]?.string ?? ""
        #expect(link?["expiresAt"]?.int == h.clock.now + 600_000)
        h.clock.now += 600_000
        let r = h.request(2, #"{"type":"device.link","id":"d","code":"\#(code)"}"#)
        #expect(r["code"]?.string == "invalid_link")
    }

    @Test func theFirstAccountIsTheAdminAndOthersNeedAnInvite() throws {
        let h = try EngineHarness(settings: EngineSettings())
        let first = h.request(1, #"{"type":"register","id":"r","name":"Ana"}"#)
        #expect(first["result"]?["user"]?["admin"]?.bool == true)
        let refused = h.request(2, #"{"type":"register","id":"r","name":"Ben"}"#)
        #expect(refused["code"]?.string == "registration_closed")
        let invite = h.request(1, #"{"type":"conversations.create","id":"c","title":"Room"}"#)["result"]?["invite"]?.string ?? ""
        let ben = h.request(2, #"{"type":"register","id":"r","name":"Ben","invite":"\#(invite)"}"#)
        #expect(ben["result"]?["user"]?["admin"] == nil)
        #expect(ben["result"]?["conversation"]?["memberCount"]?.int == 2)
    }

    /// A database from before devices: its users sign in with their old token, which
    /// is now their first device, and old invite codes still work (now hashed).
    @Test func usersOfAnOlderDatabaseKeepTheirTokenAndInvites() throws {
        let dir = NSTemporaryDirectory() + "parlor-migrate-" + Secrets.hex(Secrets.randomBytes(4))
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/parlor.sqlite"
        _ = SQLiteStore.walBuffer  // SQLite's setup comes before any database is opened
        let old = try DatabaseQueue(path: path)
        try SQLiteSchema.migrator.migrate(old, upTo: "v4-health")
        try old.write { db in
            try db.execute(sql: "INSERT INTO users (id, name, token_hash, created_at) VALUES ('u1', 'Ana', ?, 1)",
                           arguments: [Data(Secrets.tokenHash("old-token"))])
            try db.execute(sql: "INSERT INTO conversations (id, title, created_at, active_at) VALUES ('c1', 'Old', 1, 1)")
            try db.execute(sql: "INSERT INTO members (conversation_id, user_id, joined_at) VALUES ('c1', 'u1', 1)")
            try db.execute(sql: "INSERT INTO invites (code, conversation_id, created_by, created_at) VALUES ('old-invite', 'c1', 'u1', 1)")
        }
        try old.close()

        let h = try EngineHarness(databasePath: { _ in path }, settings: EngineSettings())
        let auth = h.request(1, #"{"type":"auth","id":"a","token":"old-token"}"#)
        #expect(auth["result"]?["user"]?["id"]?.string == "u1")
        #expect(auth["result"]?["device"]?["name"]?.string == "First device")
        let conv = h.request(1, #"{"type":"conversations.list","id":"l"}"#)["result"]?["conversations"]?.array?.first
        #expect(conv?["createdBy"]?.string == "u1")
        h.clock.now = Int(Date().timeIntervalSince1970 * 1000)
        let ben = h.request(2, #"{"type":"register","id":"r","name":"Ben","invite":"old-invite"}"#)
        #expect(ben["result"]?["conversation"]?["id"]?.string == "c1")
    }
}
