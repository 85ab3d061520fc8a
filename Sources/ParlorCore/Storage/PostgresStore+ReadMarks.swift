/// Read marks, as in SQLiteStore+ReadMarks: in the membership row.
extension PostgresTransaction {
    func markRead(conversationId: String, userId: String, seq: Int) throws -> Int? {
        // The conversation's row is read, not locked (only `members` is updated): a
        // read mark never waits for a send in the same conversation, nor holds one up.
        try row("""
            UPDATE members m SET read_seq = LEAST($3, c.last_seq) FROM conversations c
            WHERE c.id = $1 AND m.conversation_id = $1 AND m.user_id = $2 AND m.read_seq < LEAST($3, c.last_seq)
            RETURNING m.read_seq
            """, [conversationId, userId, seq]).map { $0[0] }
    }
}
