import Testing
@testable import ParlorCore

@Suite struct ModerationTests {
    /// A removed member's every connection is unsubscribed in the same batch, and the
    /// conversation is refused to them from then.
    @Test func removalUnsubscribesEveryConnectionOfTheMember() throws {
        let h = try EngineHarness()
        _ = h.register(1, "Ana")
        let (ben, benToken) = h.register(2, "Ben")
        h.request(3, #"{"type":"auth","id":"a","token":"\#(benToken)"}"#)
        let cid = h.conversation(owner: 1, joiners: [2])
        for conn: ConnectionID in [2, 3] {
            h.request(conn, #"{"type":"subscribe","id":"s","conversationId":"\#(cid)"}"#)
        }
        let actions = h.batch([(1, #"{"type":"conversations.removeMember","id":"r","conversationId":"\#(cid)","userId":"\#(ben)"}"#)])
        var unsubscribed: Set<ConnectionID> = []
        for case .unsubscribe(let conn, let c) in actions where c == cid { unsubscribed.insert(conn) }
        #expect(unsubscribed == [2, 3])
        let history = h.request(3, #"{"type":"history","id":"h","conversationId":"\#(cid)"}"#)
        #expect(history["code"]?.string == "not_member")
    }
}
