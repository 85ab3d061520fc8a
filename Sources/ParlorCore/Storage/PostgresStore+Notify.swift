/// Notification levels, as in SQLiteStore+Notify: in the membership row.
extension PostgresTransaction {
    func setNotify(conversationId: String, userId: String, level: NotifyLevel) throws -> Bool {
        try !rows("""
            UPDATE members SET notify = $3 WHERE conversation_id = $1 AND user_id = $2 AND notify <> $3
            RETURNING notify
            """, [conversationId, userId, level.code]).isEmpty
    }

    func notifyLevel(conversationId: String, userId: String) throws -> NotifyLevel? {
        try row("SELECT notify FROM members WHERE conversation_id = $1 AND user_id = $2", [conversationId, userId])
            .map { NotifyLevel(code: $0[0]) }
    }
}
