import GRDB
import Testing
@testable import ParlorCore

/// Invites that can no longer be used (revoked, expired, used up) are deleted a month
/// after: every invite ever made stayed in the database (an outside soak run).
@Suite struct InvitePruneTests {
    @Test func deadInvitesGoAfterAMonthAndLiveOnesStay() throws {
        let h = try EngineHarness(databasePath: { $0 + "/parlor.sqlite" })
        h.register(1, "Ana")
        let cid = h.conversation(owner: 1)  // its own invite: 7 days
        func invite(_ fields: String) -> String {
            h.request(1, #"{"type":"invites.create","id":"i","conversationId":"\#(cid)"\#(fields)}"#)["result"]?["inviteInfo"]?["id"]?.string ?? ""
        }
        let revoked = invite("")
        h.request(1, #"{"type":"invites.revoke","id":"r","inviteId":"\#(revoked)"}"#)
        let once = h.request(1, #"{"type":"invites.create","id":"i","conversationId":"\#(cid)","maxUses":1}"#)["result"]
        let usedUp = once?["inviteInfo"]?["id"]?.string ?? ""
        let code = once?["invite"]?.string ?? ""
        h.register(2, "Ben")
        h.request(2, #"{"type":"conversations.join","id":"j","invite":"\#(code)"}"#)
        let db = try DatabaseQueue(path: h.root + "/parlor.sqlite")
        func ids() throws -> Set<String> { try db.read { Set(try String.fetchAll($0, sql: "SELECT id FROM invites")) } }
        let before = try ids()
        #expect(before.count == 3 && before.contains(revoked) && before.contains(usedUp))

        // a month is not up yet: nothing goes
        _ = h.engine.process([.sweep])
        #expect(try ids() == before)

        // 31 days on, the revoked and the used-up one go; the conversation's own, which
        // expired on day 7, stays until day 37; an invite made now stays
        h.clock.now += 31 * 86_400_000
        h.engine.lastInvitePrune = 0
        let live = invite(#","expiresInSeconds":31536000"#)
        _ = h.engine.process([.sweep])
        let left = try ids()
        #expect(left.count == 2 && left.contains(live) && !left.contains(revoked) && !left.contains(usedUp))
        h.clock.now += 7 * 86_400_000
        h.engine.lastInvitePrune = 0
        _ = h.engine.process([.sweep])
        #expect(try ids() == [live])
    }
}
