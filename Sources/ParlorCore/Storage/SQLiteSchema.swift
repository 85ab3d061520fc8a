import GRDB

/// The SQLite schema, as GRDB migrations: a new release adds a migration, never edits one.
enum SQLiteSchema {
    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE users (
                    id TEXT PRIMARY KEY,
                    name TEXT NOT NULL,
                    token_hash BLOB NOT NULL UNIQUE,
                    created_at INTEGER NOT NULL
                );
                CREATE TABLE conversations (
                    id TEXT PRIMARY KEY,
                    title TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    last_seq INTEGER NOT NULL DEFAULT 0,
                    active_at INTEGER NOT NULL
                );
                CREATE TABLE members (
                    conversation_id TEXT NOT NULL REFERENCES conversations(id),
                    user_id TEXT NOT NULL REFERENCES users(id),
                    joined_at INTEGER NOT NULL,
                    PRIMARY KEY (conversation_id, user_id)
                ) WITHOUT ROWID;
                CREATE INDEX members_by_user ON members(user_id);
                CREATE TABLE invites (
                    code TEXT PRIMARY KEY,
                    conversation_id TEXT NOT NULL REFERENCES conversations(id),
                    created_by TEXT NOT NULL,
                    created_at INTEGER NOT NULL
                ) WITHOUT ROWID;
                -- A rowid table: rows carry whole bodies, which WITHOUT ROWID handles badly.
                CREATE TABLE messages (
                    conversation_id TEXT NOT NULL,
                    seq INTEGER NOT NULL,
                    client_id TEXT NOT NULL,
                    sender_id TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    body BLOB NOT NULL,
                    sender_participant_id TEXT,
                    session_id TEXT,
                    session_version INTEGER,
                    superseded_by INTEGER,
                    summary TEXT,
                    UNIQUE (conversation_id, seq)
                );
                CREATE UNIQUE INDEX messages_by_client_id ON messages(sender_id, client_id);
                CREATE INDEX messages_by_session ON messages(conversation_id, session_id, session_version)
                    WHERE session_id IS NOT NULL;
                CREATE TABLE sessions (
                    conversation_id TEXT NOT NULL,
                    id TEXT NOT NULL,
                    app_id TEXT NOT NULL,
                    version INTEGER NOT NULL,
                    current_seq INTEGER NOT NULL,
                    PRIMARY KEY (conversation_id, id)
                ) WITHOUT ROWID;
                CREATE TABLE installed_apps (
                    user_id TEXT NOT NULL,
                    app_id TEXT NOT NULL,
                    PRIMARY KEY (user_id, app_id)
                ) WITHOUT ROWID;
                CREATE TABLE participants (
                    user_id TEXT NOT NULL,
                    app_id TEXT NOT NULL,
                    participant_id TEXT NOT NULL UNIQUE,
                    PRIMARY KEY (user_id, app_id)
                ) WITHOUT ROWID;
                """)
        }
        m.registerMigration("v2-app-data") { db in
            try db.execute(sql: """
                CREATE TABLE app_data (
                    user_id TEXT NOT NULL,
                    app_id TEXT NOT NULL,
                    key TEXT NOT NULL,
                    value BLOB NOT NULL,
                    PRIMARY KEY (user_id, app_id, key)
                ) WITHOUT ROWID;
                """)
        }
        m.registerMigration("v3-members-by-join") { db in
            // The listed members are the first 200 by join order: without this index each
            // join and subscribe sorted every member of the room.
            try db.execute(sql: "CREATE INDEX members_by_join ON members(conversation_id, joined_at, user_id)")
        }
        m.registerMigration("v4-health") { db in
            // /health proves the database takes a write by writing this one row.
            try db.execute(sql: "CREATE TABLE health (id INTEGER PRIMARY KEY CHECK (id = 1), checked_at INTEGER NOT NULL)")
        }
        m.registerMigration("v5-conversation-moderation", migrate: Self.conversationModeration)
        m.registerMigration("v6-devices", migrate: Self.devices)
        m.registerMigration("v7-admin-commands") { db in
            // `parlor admin` hands its requests to a running server through this table
            // (the server runs them on its engine thread and writes the answer back).
            try db.execute(sql: """
                CREATE TABLE admin_commands (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    request BLOB NOT NULL,
                    created_at INTEGER NOT NULL,
                    reply BLOB,
                    done_at INTEGER
                );
                """)
        }
        m.registerMigration("v8-blobs") { db in
            // Who uploaded each image and when: a user's stored total, and the age
            // after which an image no message shows is collected.
            try db.execute(sql: """
                CREATE TABLE blobs (
                    hash TEXT PRIMARY KEY,
                    size INTEGER NOT NULL,
                    uploaded_by TEXT NOT NULL,
                    created_at INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX blobs_by_uploader ON blobs(uploaded_by);
                CREATE INDEX blobs_by_age ON blobs(created_at);
                """)
        }
        m.registerMigration("v9-unreferenced-blobs") { db in
            // Images uploaded and never shown, found without scanning every image.
            try db.execute(sql: """
                ALTER TABLE blobs ADD COLUMN referenced INTEGER NOT NULL DEFAULT 0;
                UPDATE blobs SET referenced = EXISTS (SELECT 1 FROM message_blobs m WHERE m.hash = blobs.hash);
                CREATE INDEX blobs_unreferenced ON blobs(created_at) WHERE referenced = 0;
                """)
        }
        m.registerMigration("v10-client-ids-by-time", migrate: Self.clientIdsByTime)
        m.registerMigration("v11-blob-uploads") { db in
            // Who uploaded each image (an upload of the same bytes is stored once): one
            // may put in a message only an image one uploaded or was shown. A hash alone
            // told an outsider whether an image was here, and kept it served after
            // its message was deleted. The first uploader of images stored before is known.
            try db.execute(sql: """
                CREATE TABLE blob_uploads (
                    hash TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    PRIMARY KEY (hash, user_id)
                ) WITHOUT ROWID;
                INSERT OR IGNORE INTO blob_uploads (hash, user_id) SELECT hash, uploaded_by FROM blobs;
                """)
        }
        m.registerMigration("v12-deleted-accounts") { db in
            // A person may delete their own account (account.delete): it keeps its id and
            // a stand-in name, for the messages it sent, and can never sign in again.
            try db.execute(sql: "ALTER TABLE users ADD COLUMN deleted_at INTEGER")
        }
        m.registerMigration("v13-former-members") { db in
            // Who left or was removed: the messages they sent are shown with their name
            // (`members` answers it), not as "Someone". Written when someone leaves, never
            // on a send. Those who left before it: v14.
            try db.execute(sql: """
                CREATE TABLE former_members (
                    conversation_id TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    PRIMARY KEY (conversation_id, user_id)
                ) WITHOUT ROWID;
                """)
        }
        m.registerMigration("v14-former-senders") { db in
            // Those who left before v13 were "Someone" on what they had sent: each
            // sender of a conversation who is no longer its member is a former member.
            try db.execute(sql: Self.formerSenders)
        }
        m.registerMigration("v15-removed-members") { db in
            // When a moderator removed someone (NULL: they left): the invites made before
            // no longer let them back, as the Remove question says.
            try db.execute(sql: "ALTER TABLE former_members ADD COLUMN removed_at INTEGER")
        }
        m.registerMigration("v16-read-marks") { db in
            // How far each member has read (`read`), so her other devices follow: in the
            // membership row, so it is one per membership and goes when she leaves.
            // Written by `read` only, never on a send.
            try db.execute(sql: "ALTER TABLE members ADD COLUMN read_seq INTEGER NOT NULL DEFAULT 0")
        }
        m.registerMigration("v17-reports") { db in
            // Members' reports of messages to the admins (messages.report), each with a
            // copy of the message's words, dropped when an admin resolves it.
            try db.execute(sql: Self.reports)
        }
        m.registerMigration("v18-notify") { db in
            // Each member's notification level (conversations.setNotify: 0 all, 1 mentions,
            // 2 none), in the membership row so that it goes when they leave.
            try db.execute(sql: "ALTER TABLE members ADD COLUMN notify INTEGER NOT NULL DEFAULT 0")
        }
        m.registerMigration("v19-direct") { db in
            // Direct conversations (one per pair of people) and blocks (SQLiteSchema+Direct).
            try db.execute(sql: Self.direct)
        }
        return m
    }

    /// Shared with PostgreSQL's migration 6: one scan of the messages, once.
    static let formerSenders = """
        INSERT INTO former_members (conversation_id, user_id)
        SELECT DISTINCT m.conversation_id, m.sender_id FROM messages m
        WHERE m.sender_id IN (SELECT id FROM users)
          AND NOT EXISTS (SELECT 1 FROM members b WHERE b.conversation_id = m.conversation_id AND b.user_id = m.sender_id)
          AND NOT EXISTS (SELECT 1 FROM former_members f WHERE f.conversation_id = m.conversation_id AND f.user_id = m.sender_id)
        """

    /// A sender's clientIds were indexed sender first, so each send landed in a page of
    /// its own sender's part of the index: a batch of moves by 40 people wrote 40 pages
    /// there. The web client's ids begin with the time they were made (UUID version 7),
    /// so with the id first every send lands at the end of the index, in the page the
    /// last one wrote (games: 28 % fewer bytes written, 8-14 % less CPU per delivery;
    /// docs/BENCHMARKS.md, session 16). Same pairs, same uniqueness.
    static func clientIdsByTime(_ db: Database) throws {
        try db.execute(sql: """
            DROP INDEX messages_by_client_id;
            CREATE UNIQUE INDEX messages_by_client_id ON messages(client_id, sender_id);
            """)
    }
}
