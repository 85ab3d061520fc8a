import GRDB

/// Read marks: how far each member has read, kept in their membership row.
extension SQLiteTransaction {
    func markRead(conversationId: String, userId: String, seq: Int) throws -> Int? {
        // One statement: the clamp to the conversation's last seq (looked up once) and
        // the only-upwards rule together.
        try row("""
            UPDATE members SET read_seq = mark.seq
            FROM (SELECT min(?3, COALESCE(MAX(seq), 0)) AS seq FROM messages WHERE conversation_id = ?1) AS mark
            WHERE members.conversation_id = ?1 AND members.user_id = ?2 AND members.read_seq < mark.seq
            RETURNING read_seq
            """, [conversationId, userId, seq]).map { $0[0] }
    }
}
