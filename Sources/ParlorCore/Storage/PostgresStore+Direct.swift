/// Direct conversations and blocks (Engine+Direct.swift), as in SQLiteStore+Direct.
extension PostgresTransaction {
    func directConversationId(_ a: String, _ b: String) throws -> String? {
        let (x, y) = directPairOrder(a, b)
        return try row("SELECT conversation_id FROM direct_pairs WHERE user_a = $1 AND user_b = $2", [x, y]).map { $0[0] }
    }

    /// Two nodes claiming the same pair at once: the second insert waits for the first's
    /// commit, then does nothing (the primary key), and the caller reads the first's row.
    func claimDirect(_ a: String, _ b: String, conversationId: String) throws -> Bool {
        let (x, y) = directPairOrder(a, b)
        return try exec("""
            INSERT INTO direct_pairs (user_a, user_b, conversation_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING
            """, [x, y, conversationId]) > 0
    }

    func directPair(conversationId: String) throws -> [String]? {
        try row("SELECT user_a, user_b FROM direct_pairs WHERE conversation_id = $1", [conversationId]).map { [$0[0], $0[1]] }
    }

    func directPeople(conversationId: String) throws -> [Member]? {
        try row("""
            SELECT d.user_a, COALESCE(a.name, ''), d.user_b, COALESCE(b.name, '') FROM direct_pairs d
            LEFT JOIN users a ON a.id = d.user_a LEFT JOIN users b ON b.id = d.user_b
            WHERE d.conversation_id = $1
            """, [conversationId]).map { [Member(userId: $0[0], name: $0[1]), Member(userId: $0[2], name: $0[3])] }
    }

    func shareAConversation(_ a: String, _ b: String) throws -> Bool {
        try row("""
            SELECT 1 FROM members x JOIN members y ON y.conversation_id = x.conversation_id AND y.user_id = $1
            WHERE x.user_id = $2 LIMIT 1
            """, [b, a]) != nil
    }

    func isBlocked(blocker: String, blocked: String) throws -> Bool {
        try row("SELECT 1 FROM blocks WHERE blocker_id = $1 AND blocked_id = $2", [blocker, blocked]) != nil
    }

    func block(blocker: String, blocked: String, at: Int) throws -> Bool {
        try exec("INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                 [blocker, blocked, at]) > 0
    }

    func unblock(blocker: String, blocked: String) throws -> Bool {
        try exec("DELETE FROM blocks WHERE blocker_id = $1 AND blocked_id = $2", [blocker, blocked]) > 0
    }

    func blockCount(blocker: String) throws -> Int {
        try row("SELECT count(*) FROM blocks WHERE blocker_id = $1", [blocker]).map { $0[0] } ?? 0
    }

    func blocked(by blocker: String) throws -> [Member] {
        try rows("""
            SELECT u.id, u.name FROM blocks b JOIN users u ON u.id = b.blocked_id
            WHERE b.blocker_id = $1 ORDER BY b.created_at, u.id
            """, [blocker]).map { Member(userId: $0[0], name: $0[1]) }
    }

    /// "parlor" in ASCII as a number, plus one: the schema's advisory lock is the number itself.
    func lockDirectPairs() throws {
        _ = try exec("SELECT pg_advisory_xact_lock(123563833847667)", [])
    }

    func deleteBlocks(by blocker: String) throws {
        _ = try exec("DELETE FROM blocks WHERE blocker_id = $1", [blocker])
    }
}
