import Foundation
import GRDB

extension SQLiteSchema {
    /// Admins, conversation creators, leaving and removal, invites that expire or run
    /// out, deleted messages, and which messages use which image.
    static func conversationModeration(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE users ADD COLUMN admin INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE conversations ADD COLUMN created_by TEXT;
            UPDATE conversations SET created_by = (
                SELECT user_id FROM members WHERE conversation_id = conversations.id
                ORDER BY joined_at, user_id LIMIT 1);
            ALTER TABLE messages ADD COLUMN deleted_at INTEGER;
            -- Invite codes were stored as they are; now only their SHA-256, like tokens.
            -- An invite without a conversation is an admin's registration link.
            CREATE TABLE invites_v5 (
                id TEXT PRIMARY KEY,
                code_hash BLOB NOT NULL UNIQUE,
                conversation_id TEXT REFERENCES conversations(id),
                created_by TEXT NOT NULL,
                created_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL,
                max_uses INTEGER,
                uses INTEGER NOT NULL DEFAULT 0,
                revoked_at INTEGER
            );
            CREATE INDEX invites_by_conversation ON invites_v5(conversation_id, created_at);
            -- Which stored images each message shows: an image no live message uses is
            -- no longer served, and is collected after a grace period.
            CREATE TABLE message_blobs (
                hash TEXT NOT NULL,
                conversation_id TEXT NOT NULL,
                seq INTEGER NOT NULL,
                PRIMARY KEY (hash, conversation_id, seq)
            ) WITHOUT ROWID;
            CREATE INDEX message_blobs_by_message ON message_blobs(conversation_id, seq);
            """)
        // Invites made before this version never expired: they now run for a week.
        let week = Int(Date().timeIntervalSince1970 * 1000) + 7 * 86_400_000
        for row in try Row.fetchAll(db, sql: "SELECT code, conversation_id, created_by, created_at FROM invites") {
            let code: String = row[0]
            try db.execute(sql: """
                INSERT INTO invites_v5 (id, code_hash, conversation_id, created_by, created_at, expires_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [Secrets.id(prefix: "i"), Data(Secrets.tokenHash(code)), row[1], row[2], row[3], week])
        }
        try db.execute(sql: "DROP TABLE invites; ALTER TABLE invites_v5 RENAME TO invites")
        let messages = try Row.fetchCursor(db, sql: "SELECT conversation_id, seq, body FROM messages")
        while let row = try messages.next() {
            let body = [UInt8](row[2] as Data)
            for hash in MessageContent.imageHashes(ofBody: body) {
                try db.execute(sql: "INSERT OR IGNORE INTO message_blobs (hash, conversation_id, seq) VALUES (?, ?, ?)",
                               arguments: [hash, row[0], row[1]])
            }
        }
    }
}
