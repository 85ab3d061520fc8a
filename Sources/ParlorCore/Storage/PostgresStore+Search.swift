/// A search's scan, as in SQLiteStore+Search: the `(conversation_id, seq)` key walked
/// backwards, `Limits.searchChunk` rows a round trip, so one answer holds a bounded
/// number of bodies however many the scan reads.
extension PostgresTransaction {
    func scanBodies(conversationId: String, beforeSeq: Int, limit: Int,
                    _ visit: (_ seq: Int, _ body: UnsafeBufferPointer<UInt8>) throws -> Bool) throws {
        var before = beforeSeq
        var left = limit
        while left > 0 {
            let chunk = min(left, Limits.searchChunk)
            let page = try rows("""
                SELECT seq, body FROM messages WHERE conversation_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3
                """, [conversationId, before, chunk])
            for r in page {
                let seq: Int = r[0]
                let body: [UInt8] = r[1]
                guard try body.withUnsafeBufferPointer({ try visit(seq, $0) }) else { return }
                before = seq
            }
            if page.count < chunk { return }
            left -= page.count
        }
    }
}
