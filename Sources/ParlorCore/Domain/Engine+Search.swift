/// Search in one conversation (`messages.search`, docs/PROTOCOL.md): the messages that
/// say the query's words, newest first. The engine is one thread, and everyone's sends
/// wait while it searches: each request reads at most `Limits.searchScanMessages`
/// messages and `Limits.searchScanBytes` of their bodies, stops at
/// `Limits.searchResults` matches, and says where it stopped so that the client asks
/// for more; each user has `searchesPerUser` of them.
extension Engine {
    func searchMessages(_ cid: String, query: String, beforeSeq: Int?, id: String?, conn: ConnectionID,
                        userId: String, _ tx: any StoreTransaction, _ out: inout Outbox) throws {
        try requireMember(cid, userId, tx)
        try limit(\.searches, userId, "searches")
        let scan = try Self.scan(cid, query: query, beforeSeq: beforeSeq ?? Int.max, tx)
        // What the matches are now: a state its session moved on from is drawn as a
        // summary line, not the words that matched (and the current state is found too).
        var found: [StoredMessage] = []
        for seq in scan.matches {
            guard let m = try tx.message(conversationId: cid, seq: seq), m.deletedAt == nil, m.supersededBy == nil else { continue }
            found.append(m)
        }
        let kept = Self.encodedWithinBudget(found)
        var hasMore = scan.hasMore
        var next = scan.stoppedAt
        if kept.count < found.count {
            // long messages past a page's bytes: the next request starts after the last sent
            hasMore = true
            next = found[kept.count - 1].seq
        }
        out.result(conn, id) { w in Self.writePage(kept, hasMore: hasMore, nextBeforeSeq: next, into: &w) }
    }

    /// Where a scan stopped: the seqs that matched (newest first), the last seq it read
    /// (the next scan goes on before it), and whether older messages are left unread.
    struct SearchScan: Equatable {
        var matches: [Int] = []
        var stoppedAt: Int?
        var hasMore = false
        var scanned = 0
    }

    static func scan(_ cid: String, query: String, beforeSeq: Int, _ tx: any StoreTransaction,
                     maxMessages: Int = Limits.searchScanMessages, maxBytes: Int = Limits.searchScanBytes,
                     maxResults: Int = Limits.searchResults) throws -> SearchScan {
        var matcher = SearchMatcher(query)
        var result = SearchScan()
        var bytes = 0
        var stoppedEarly = false
        try tx.scanBodies(conversationId: cid, beforeSeq: beforeSeq, limit: maxMessages) { seq, body in
            result.scanned += 1
            result.stoppedAt = seq
            bytes += body.count
            if matcher.matches(body) { result.matches.append(seq) }
            if result.matches.count >= maxResults || bytes >= maxBytes {
                stoppedEarly = true
                return false
            }
            return true
        }
        // The scan read all it was allowed to (or stopped early): older messages may be
        // left, unless it reached seq 1. Fewer rows than allowed: the start was reached.
        let reachedLimit = stoppedEarly || result.scanned >= maxMessages
        result.hasMore = reachedLimit && (result.stoppedAt ?? 1) > 1
        return result
    }
}
