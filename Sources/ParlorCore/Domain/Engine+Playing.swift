/// `playing`: who has a session open in the expanded pane. The engine checks the request
/// against the database (a member, a session of the conversation); the live state, which
/// knows the connections, keeps the marks, bounds them and answers.
extension Engine {
    func playing(_ cid: String, _ sid: String, _ on: Bool, id: String?, conn: ConnectionID, userId: String,
                 _ tx: any StoreTransaction, _ out: inout Outbox) throws {
        try requireMember(cid, userId, tx)
        try limit(\.playing, userId, "session marks")
        if on, cache.sessions[IdPair(cid, sid)] == nil, try tx.session(conversationId: cid, id: sid) == nil {
            throw ParlorError(.notFound, "there is no such session in this conversation", field: "sessionId")
        }
        out.actions.append(.playing(conn, re: id, conversationId: cid, sessionId: sid, userId: userId, playing: on))
    }
}
