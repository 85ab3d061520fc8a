import GRDB

/// Notification levels (Engine+Notify.swift), kept in the membership row.
extension SQLiteTransaction {
    /// True when it changed (false too when not a member).
    func setNotify(conversationId: String, userId: String, level: NotifyLevel) throws -> Bool {
        try row("""
            UPDATE members SET notify = ?3 WHERE conversation_id = ?1 AND user_id = ?2 AND notify <> ?3
            RETURNING notify
            """, [conversationId, userId, level.code]) != nil
    }

    func notifyLevel(conversationId: String, userId: String) throws -> NotifyLevel? {
        try row("SELECT notify FROM members WHERE conversation_id = ? AND user_id = ?", [conversationId, userId])
            .map { (r: Row) -> NotifyLevel in NotifyLevel(code: r[0]) }
    }
}
