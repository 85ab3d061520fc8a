import GRDB

/// Read marks: how far each member has read, kept in their membership row.
extension SQLiteTransaction {
    func markRead(conversationId: String, userId: String, seq: Int) throws -> Int? {
        // One statement: the clamp to the last seq and the only-upwards rule together.
        try row("""
            UPDATE members SET read_seq = min(?3, COALESCE((SELECT MAX(seq) FROM messages WHERE conversation_id = ?1), 0))
            WHERE conversation_id = ?1 AND user_id = ?2
              AND read_seq < min(?3, COALESCE((SELECT MAX(seq) FROM messages WHERE conversation_id = ?1), 0))
            RETURNING read_seq
            """, [conversationId, userId, seq]).map { $0[0] }
    }
}
