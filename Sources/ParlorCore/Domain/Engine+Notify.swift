/// `conversations.setNotify`: a member's notification level in a conversation, kept in
/// their membership row so that muting it on the phone mutes it on the laptop too. It
/// goes with the membership: joining again starts at `all`.
extension Engine {
    func setNotify(_ cid: String, _ level: NotifyLevel, id: String?, conn: ConnectionID, userId: String,
                   _ tx: any StoreTransaction, _ out: inout Outbox) throws {
        // A write, as a rename is: bounded by the same per-user limit.
        try limit(\.changes, userId, "changes")
        try requireMember(cid, userId, tx)
        let changed = try tx.setNotify(conversationId: cid, userId: userId, level: level)
        out.result(conn, id) { _ in }
        // Her other tabs and devices, on every node, follow; the one that asked has its answer.
        if changed {
            out.actions.append(.toUserExcept(userId: userId, except: conn, Payload { w in
                w.field("type", "notify")
                w.field("conversationId", cid)
                w.field("notify", level.rawValue)
            }))
        }
    }

    /// The conversation as its member `userId` sees it: with their notification level.
    func own(_ c: Conversation, _ userId: String, _ tx: any StoreTransaction) throws -> Conversation {
        var c = c
        c.notify = try tx.notifyLevel(conversationId: c.id, userId: userId) ?? .all
        return c
    }
}
