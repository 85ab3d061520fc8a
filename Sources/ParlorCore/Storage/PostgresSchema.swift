
/// The PostgreSQL schema: the SQLite schema's current shape (its tables, keys and
/// indexes), numbered migrations of its own. A release adds one, never edits one.
/// Identifiers are `COLLATE "C"` so that they sort as in SQLite (by bytes) whatever
/// the database's locale: pagination by id depends on it.
enum PostgresSchema {
    static let migrations: [(version: Int, sql: String)] = [
        (1, """
            CREATE TABLE users (
                id TEXT COLLATE "C" PRIMARY KEY,
                name TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                admin INTEGER NOT NULL DEFAULT 0,
                recovery_hash BYTEA UNIQUE,
                deactivated_at BIGINT
            );
            CREATE TABLE conversations (
                id TEXT COLLATE "C" PRIMARY KEY,
                title TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                last_seq BIGINT NOT NULL DEFAULT 0,
                active_at BIGINT NOT NULL,
                created_by TEXT COLLATE "C"
            );
            CREATE TABLE members (
                conversation_id TEXT COLLATE "C" NOT NULL REFERENCES conversations(id),
                user_id TEXT COLLATE "C" NOT NULL REFERENCES users(id),
                joined_at BIGINT NOT NULL,
                PRIMARY KEY (conversation_id, user_id)
            );
            CREATE INDEX members_by_user ON members(user_id);
            CREATE INDEX members_by_join ON members(conversation_id, joined_at, user_id);
            CREATE TABLE invites (
                id TEXT COLLATE "C" PRIMARY KEY,
                code_hash BYTEA NOT NULL UNIQUE,
                conversation_id TEXT COLLATE "C" REFERENCES conversations(id),
                created_by TEXT COLLATE "C" NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                max_uses BIGINT,
                uses BIGINT NOT NULL DEFAULT 0,
                revoked_at BIGINT
            );
            CREATE INDEX invites_by_conversation ON invites(conversation_id, created_at);
            CREATE TABLE messages (
                conversation_id TEXT COLLATE "C" NOT NULL,
                seq BIGINT NOT NULL,
                client_id TEXT COLLATE "C" NOT NULL,
                sender_id TEXT COLLATE "C" NOT NULL,
                created_at BIGINT NOT NULL,
                body BYTEA NOT NULL,
                sender_participant_id TEXT COLLATE "C",
                session_id TEXT COLLATE "C",
                session_version BIGINT,
                superseded_by BIGINT,
                summary TEXT,
                deleted_at BIGINT,
                PRIMARY KEY (conversation_id, seq)
            );
            CREATE UNIQUE INDEX messages_by_client_id ON messages(sender_id, client_id);
            CREATE INDEX messages_by_session ON messages(conversation_id, session_id, session_version)
                WHERE session_id IS NOT NULL;
            CREATE TABLE sessions (
                conversation_id TEXT COLLATE "C" NOT NULL,
                id TEXT COLLATE "C" NOT NULL,
                app_id TEXT COLLATE "C" NOT NULL,
                version BIGINT NOT NULL,
                current_seq BIGINT NOT NULL,
                PRIMARY KEY (conversation_id, id)
            );
            CREATE TABLE installed_apps (
                user_id TEXT COLLATE "C" NOT NULL,
                app_id TEXT COLLATE "C" NOT NULL,
                PRIMARY KEY (user_id, app_id)
            );
            CREATE TABLE participants (
                user_id TEXT COLLATE "C" NOT NULL,
                app_id TEXT COLLATE "C" NOT NULL,
                participant_id TEXT COLLATE "C" NOT NULL UNIQUE,
                PRIMARY KEY (user_id, app_id)
            );
            CREATE TABLE app_data (
                user_id TEXT COLLATE "C" NOT NULL,
                app_id TEXT COLLATE "C" NOT NULL,
                key TEXT COLLATE "C" NOT NULL,
                value BYTEA NOT NULL,
                PRIMARY KEY (user_id, app_id, key)
            );
            CREATE TABLE health (id INTEGER PRIMARY KEY CHECK (id = 1), checked_at BIGINT NOT NULL);
            CREATE TABLE devices (
                id TEXT COLLATE "C" PRIMARY KEY,
                user_id TEXT COLLATE "C" NOT NULL REFERENCES users(id),
                name TEXT NOT NULL,
                token_hash BYTEA NOT NULL UNIQUE,
                created_at BIGINT NOT NULL,
                last_seen_at BIGINT NOT NULL
            );
            CREATE INDEX devices_by_user ON devices(user_id, created_at);
            CREATE TABLE device_links (
                id TEXT COLLATE "C" PRIMARY KEY,
                user_id TEXT COLLATE "C" NOT NULL REFERENCES users(id),
                token_hash BYTEA NOT NULL UNIQUE,
                code_hash BYTEA NOT NULL UNIQUE,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                used_at BIGINT
            );
            CREATE TABLE admin_commands (
                id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                request BYTEA NOT NULL,
                created_at BIGINT NOT NULL,
                reply BYTEA,
                done_at BIGINT
            );
            CREATE TABLE message_blobs (
                hash TEXT COLLATE "C" NOT NULL,
                conversation_id TEXT COLLATE "C" NOT NULL,
                seq BIGINT NOT NULL,
                PRIMARY KEY (hash, conversation_id, seq)
            );
            CREATE INDEX message_blobs_by_message ON message_blobs(conversation_id, seq);
            CREATE TABLE blobs (
                hash TEXT COLLATE "C" PRIMARY KEY,
                size BIGINT NOT NULL,
                uploaded_by TEXT COLLATE "C" NOT NULL,
                created_at BIGINT NOT NULL,
                referenced INTEGER NOT NULL DEFAULT 0
            );
            CREATE INDEX blobs_by_uploader ON blobs(uploaded_by);
            CREATE INDEX blobs_by_age ON blobs(created_at);
            CREATE INDEX blobs_unreferenced ON blobs(created_at) WHERE referenced = 0;
            """),
        // As SQLite's v10-client-ids-by-time: clientIds indexed id first, so that the
        // time-ordered ids of the web client append.
        (2, """
            DROP INDEX messages_by_client_id;
            CREATE UNIQUE INDEX messages_by_client_id ON messages(client_id, sender_id);
            """),
        // As SQLite's v11-blob-uploads: every uploader of an image, who may show it.
        (3, """
            CREATE TABLE blob_uploads (
                hash TEXT NOT NULL,
                user_id TEXT NOT NULL,
                PRIMARY KEY (hash, user_id)
            );
            INSERT INTO blob_uploads (hash, user_id) SELECT hash, uploaded_by FROM blobs ON CONFLICT DO NOTHING;
            """),
        // As SQLite's v12-deleted-accounts.
        (4, "ALTER TABLE users ADD COLUMN deleted_at BIGINT"),
        // As SQLite's v13-former-members.
        (5, """
            CREATE TABLE former_members (
                conversation_id TEXT COLLATE "C" NOT NULL,
                user_id TEXT COLLATE "C" NOT NULL,
                PRIMARY KEY (conversation_id, user_id)
            );
            """),
        // As SQLite's v14-former-senders.
        (6, SQLiteSchema.formerSenders),
        // As SQLite's v15-removed-members.
        (7, "ALTER TABLE former_members ADD COLUMN removed_at BIGINT"),
        // As SQLite's v16-read-marks.
        (8, "ALTER TABLE members ADD COLUMN read_seq BIGINT NOT NULL DEFAULT 0"),
        // As SQLite's v17-reports.
        (9, """
            CREATE TABLE reports (
                id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                conversation_id TEXT COLLATE "C" NOT NULL,
                seq BIGINT NOT NULL,
                reporter_id TEXT COLLATE "C" NOT NULL,
                sender_id TEXT COLLATE "C" NOT NULL,
                reason TEXT,
                copy BYTEA,
                message_created_at BIGINT NOT NULL,
                created_at BIGINT NOT NULL,
                resolved_at BIGINT,
                resolved_by TEXT COLLATE "C"
            );
            CREATE UNIQUE INDEX reports_open_by_reporter ON reports(reporter_id, conversation_id, seq)
                WHERE resolved_at IS NULL;
            CREATE INDEX reports_open_by_message ON reports(conversation_id, seq) WHERE resolved_at IS NULL;
            """),
        // As SQLite's v18-notify.
        (10, "ALTER TABLE members ADD COLUMN notify SMALLINT NOT NULL DEFAULT 0"),
        // As SQLite's v19-direct (10 is v18's).
        (11, """
            CREATE TABLE direct_pairs (
                user_a TEXT COLLATE "C" NOT NULL,
                user_b TEXT COLLATE "C" NOT NULL,
                conversation_id TEXT COLLATE "C" NOT NULL UNIQUE,
                PRIMARY KEY (user_a, user_b)
            );
            CREATE TABLE blocks (
                blocker_id TEXT COLLATE "C" NOT NULL,
                blocked_id TEXT COLLATE "C" NOT NULL,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (blocker_id, blocked_id)
            );
            """),
    ]

    /// Brings the database to the newest version this build knows, once per cluster:
    /// nodes starting together wait on one advisory lock, and the first does the work.
    /// A database written by a newer version is refused, untouched.
    static func migrate(_ db: PGConnection, apply: Bool = true, announce: ([String]) -> Void = { _ in }) throws {
        // "parlor" in ASCII as a number: names Parlor's schema among advisory locks.
        try db.simple("SELECT pg_advisory_lock(123563833847666)")
        defer { try? db.simple("SELECT pg_advisory_unlock(123563833847666)") }
        try db.simple("CREATE TABLE IF NOT EXISTS parlor_schema (version INTEGER NOT NULL)")
        let current: Int = try db.run("SELECT coalesce(max(version), 0) FROM parlor_schema", []).rows[0][0]
        let newest = migrations.last?.version ?? 0
        if current > newest {
            throw StoreError.newerDatabase(" (schema \(current); this one knows up to \(newest))")
        }
        let pending = migrations.filter { $0.version > current }.map { "schema \($0.version)" }
        if current > 0 && !pending.isEmpty {
            guard apply else { throw StoreError.olderDatabase(pending.joined(separator: ", ")) }
            announce(pending)
        }
        for m in migrations where m.version > current {
            try db.simple("BEGIN")
            do {
                try db.simple(m.sql)
                try db.run("INSERT INTO parlor_schema (version) VALUES ($1)", [m.version])
                try db.simple("COMMIT")
            } catch {
                try? db.simple("ROLLBACK")
                throw error
            }
        }
    }
}
