/// `typing`: someone is writing in the conversation, or stopped without sending. Nothing
/// is stored: it is news for the room's subscribers, like presence, and like presence
/// only in rooms small enough for it (`broadcastInSmallRoom`): in a room of thousands
/// each notice would cost thousands of frames.
extension Engine {
    func typing(_ cid: String, _ on: Bool, id: String?, conn: ConnectionID, userId: String,
                _ tx: any StoreTransaction, _ out: inout Outbox) throws {
        try limit(\.typing, userId, "typing notices")
        try requireMember(cid, userId, tx)
        out.result(conn, id) { _ in }
        // in a direct conversation with a block, what could not be sent is not announced either
        do { try requireNotBlocked(cid, userId, tx) } catch is ParlorError { return }
        out.actions.append(.broadcastInSmallRoom(conversationId: cid, Payload { w in
            w.field("type", "typing")
            w.field("conversationId", cid)
            w.field("userId", userId)
            w.field("typing", on)
        }))
    }
}
