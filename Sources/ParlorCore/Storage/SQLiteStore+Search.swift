import GRDB

/// A search's scan (Engine+Search.swift): the `UNIQUE (conversation_id, seq)` index
/// walked backwards, each body read where SQLite holds it, no copy and no row object.
extension SQLiteTransaction {
    func scanBodies(conversationId: String, beforeSeq: Int, limit: Int,
                    _ visit: (_ seq: Int, _ body: UnsafeBufferPointer<UInt8>) throws -> Bool) throws {
        let q = try RawStatement(db, statements, """
            SELECT seq, body FROM messages WHERE conversation_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?
            """)
        q.bind(1, conversationId)
        q.bind(2, beforeSeq)
        q.bind(3, limit)
        defer { q.done() }
        while try q.firstRow() {
            let seq = q.int(0)
            guard try q.withBlob(1, { try visit(seq, $0) }) else { return }
        }
    }
}
