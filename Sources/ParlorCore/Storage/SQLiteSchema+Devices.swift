import GRDB

extension SQLiteSchema {
    /// An account on many devices: each signed-in browser has its own token (a device),
    /// one-time links sign in another, and a recovery key gets back in. A user's old
    /// single token becomes their first device.
    static func devices(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE devices (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id),
                name TEXT NOT NULL,
                token_hash BLOB NOT NULL UNIQUE,
                created_at INTEGER NOT NULL,
                last_seen_at INTEGER NOT NULL
            );
            CREATE INDEX devices_by_user ON devices(user_id, created_at);
            INSERT INTO devices (id, user_id, name, token_hash, created_at, last_seen_at)
                SELECT 'd' || lower(hex(randomblob(12))), id, 'First device', token_hash, created_at, created_at
                FROM users;
            -- users without their token (SQLite cannot drop a UNIQUE column in place).
            CREATE TABLE users_v6 (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                created_at INTEGER NOT NULL,
                admin INTEGER NOT NULL DEFAULT 0,
                recovery_hash BLOB UNIQUE,
                deactivated_at INTEGER
            );
            INSERT INTO users_v6 (id, name, created_at, admin) SELECT id, name, created_at, admin FROM users;
            DROP TABLE users;
            ALTER TABLE users_v6 RENAME TO users;
            CREATE TABLE device_links (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id),
                token_hash BLOB NOT NULL UNIQUE,
                code_hash BLOB NOT NULL UNIQUE,
                created_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL,
                used_at INTEGER
            );
            """)
    }
}
