extension SQLiteSchema {
    /// v17: reports to the admins. A copy of the reported message's words (`copy`) and
    /// the reason live while the report is open; resolving drops both. At most one open
    /// report of a message per reporter.
    static let reports = """
        CREATE TABLE reports (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            conversation_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            reporter_id TEXT NOT NULL,
            sender_id TEXT NOT NULL,
            reason TEXT,
            copy BLOB,
            message_created_at INTEGER NOT NULL,
            created_at INTEGER NOT NULL,
            resolved_at INTEGER,
            resolved_by TEXT
        );
        CREATE UNIQUE INDEX reports_open_by_reporter ON reports(reporter_id, conversation_id, seq)
            WHERE resolved_at IS NULL;
        CREATE INDEX reports_open_by_message ON reports(conversation_id, seq) WHERE resolved_at IS NULL;
        """
}
