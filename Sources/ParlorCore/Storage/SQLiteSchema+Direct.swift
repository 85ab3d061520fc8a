extension SQLiteSchema {
    /// v19: direct conversations and blocks. A pair of people has at most one direct
    /// conversation: the pair's primary key makes two askers at once get the same one
    /// (the first insert wins, the second finds it). `user_a` sorts before `user_b`.
    /// A block is its blocker's: whom they no longer hear from in direct conversations.
    static let direct = """
        CREATE TABLE direct_pairs (
            user_a TEXT NOT NULL,
            user_b TEXT NOT NULL,
            conversation_id TEXT NOT NULL UNIQUE,
            PRIMARY KEY (user_a, user_b)
        ) WITHOUT ROWID;
        CREATE TABLE blocks (
            blocker_id TEXT NOT NULL,
            blocked_id TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            PRIMARY KEY (blocker_id, blocked_id)
        ) WITHOUT ROWID;
        """
}
