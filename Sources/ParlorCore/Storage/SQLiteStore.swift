import CWALBuffer
import Foundation
import GRDB

/// The default store: one SQLite file in WAL mode; an acknowledged message survives a
/// crash or power loss.
///
/// Commits run with `synchronous=NORMAL`, which in WAL mode writes a transaction to the
/// WAL without waiting for the disk (and still syncs around checkpoints, so the file
/// stays consistent through a power loss). Durability is `syncCommitted`: one
/// `fdatasync` of the WAL, which the engine thread runs on a thread of its own before
/// anything of the batches it covers is acknowledged, while the next batch is already
/// being processed. The engine no longer waits for the disk between batches, nor for
/// checkpoints (`WALCheckpointer`).
public final class SQLiteStore: ParlorStore {
    /// Registers the VFS that writes each WAL commit in one system call (CWALBuffer), for
    /// every connection opened after it: the engine's and the checkpointer's; and, first,
    /// the page cache whose truncations skip what cannot drop anything (page_cache.c).
    static let walBuffer: Int32 = parlor_walbuf_register()

    /// The page cache of the engine's connection, KiB.
    static let cacheKiB = 32 * 1024

    private let queue: DatabaseQueue
    private let statements = StatementCache()
    private let walSync: WALSync?
    let checkpointer: WALCheckpointer?

    /// `path` nil opens a private in-memory database (tests). `maxPages` caps the file, as
    /// a full disk would, and `checkpointAfterBytes` starts checkpoints sooner (tests).
    /// `migrate` false (`parlor admin`): an older database is refused, not updated, since
    /// an older server may be running on it. `announce` hears the migrations about to
    /// run on an existing database, before they run (some take seconds).
    public init(path: String?, maxPages: Int? = nil,
                checkpointAfterBytes: Int? = nil, migrate: Bool = true,
                announce: ([String]) -> Void = { _ in }) throws {
        _ = Self.walBuffer
        var config = Configuration()
        config.prepareDatabase { db in
            if path != nil { try db.execute(sql: "PRAGMA journal_mode = WAL") }
            // Deleted rows are zeroed, not left in free space (Debian's default, said here).
            try db.execute(sql: "PRAGMA secure_delete = ON")
            try db.execute(sql: path != nil ? "PRAGMA synchronous = NORMAL" : "PRAGMA synchronous = FULL")
            if let maxPages { try db.execute(sql: "PRAGMA max_page_count = \(maxPages)") }
            // A message lands in a leaf of three indexes per room (by seq, by session, by
            // sender's clientId), so a busy server's working set is a few pages per active
            // room: with SQLite's default 2 MiB cache nearly every send read a page back
            // (games, 2,000 rooms: 0.7 pread per move, and dirty pages spilled to the
            // WAL before the commit). Pages are allocated as they are used: a small
            // database never holds this much.
            try db.execute(sql: "PRAGMA cache_size = -\(Self.cacheKiB)")
        }
        // The engine is the only writer; waiting on a lock would mean a bug, not load.
        config.busyMode = .timeout(5)
        if let path, let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size == 0 {
            // An empty file is not a new database: it is a lost one (a failed copy, a full disk).
            throw StoreError("\(path) exists but is empty; restore it from a backup or remove it to start afresh")
        }
        queue = try path.map { try DatabaseQueue(path: $0, configuration: config) }
            ?? DatabaseQueue(configuration: config)
        walSync = path.map { WALSync(databasePath: $0) }
        checkpointer = path.map { WALCheckpointer(databasePath: $0, backgroundAfterBytes: checkpointAfterBytes ?? WALCheckpointer.defaultBackgroundAfterBytes) }
        if let checkpointer {
            try queue.inDatabase { db in
                let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096
                if let c = db.sqliteConnection { checkpointer.attach(to: c, pageSize: pageSize) }
            }
        }
        let migrator = SQLiteSchema.migrator
        let applied = try queue.read { db in
            if try migrator.hasBeenSuperseded(db) {
                let unknown = try migrator.appliedIdentifiers(db).subtracting(migrator.migrations).sorted()
                throw StoreError.newerDatabase(" (it has \(unknown.joined(separator: ", ")); this one knows up to \(Self.schemaVersion))")
            }
            return try migrator.appliedIdentifiers(db)
        }
        let pending = migrator.migrations.filter { !applied.contains($0) }
        if !applied.isEmpty && !pending.isEmpty {
            guard migrate else { throw StoreError.olderDatabase(pending.joined(separator: ", ")) }
            announce(pending)
        }
        let start = DispatchTime.now().uptimeNanoseconds
        try migrator.migrate(queue)
        if !applied.isEmpty {
            upgrade = (pending, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
    }

    /// The newest migration this build knows: what `parlor --version` names.
    public static var schemaVersion: String { SQLiteSchema.migrator.migrations.last ?? "" }

    /// The migrations this opening applied to a database that had some already (a new
    /// one gets them all), and how long they took: some rebuild an index of every
    /// message, and the server logs it, so a self-hoster knows what the wait was.
    public private(set) var upgrade: (migrations: [String], seconds: Double)?

    public func write<T>(_ body: (any StoreTransaction) throws -> T) throws -> T {
        try queue.write { db in try body(SQLiteTransaction(db: db, statements: statements)) }
    }

    public var syncsSeparately: Bool { walSync != nil }

    public var runsReadOnly: Bool { true }

    /// `query_only`: every statement that would change the database fails (SQLITE_READONLY)
    /// and the commit writes nothing, so a full disk cannot fail it.
    public func readOnly(_ body: (any StoreTransaction) throws -> Void) throws {
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA query_only = ON")
            defer { try? db.execute(sql: "PRAGMA query_only = OFF") }
            try db.inTransaction(.deferred) {
                try body(SQLiteTransaction(db: db, statements: statements))
                return .commit
            }
        }
    }

    public func syncCommitted() throws { try walSync?.sync() }

    /// The database file forgets deleted text as the checkpoint copies the deletion in
    /// (`secure_delete`); the WAL keeps older frames until they are written over, so it
    /// is emptied (`WALCheckpointer.scrub`).
    public func forgetDeletedSoon() { checkpointer?.scrub() }

    /// `parlor admin` with a server running: queue the frame for it; returns its id.
    public func queueAdminCommand(_ frame: [UInt8], at: Int) throws -> Int64 {
        let id = try queue.write { db in
            try db.execute(sql: "INSERT INTO admin_commands (request, created_at) VALUES (?, ?)", arguments: [Data(frame), at])
            return db.lastInsertedRowID
        }
        try syncCommitted()
        return id
    }

    /// The running server's answer to a queued frame, once there is one.
    public func adminCommandReply(id: Int64) throws -> [UInt8]? {
        try queue.read { db in
            try Data.fetchOne(db, sql: "SELECT reply FROM admin_commands WHERE id = ? AND done_at IS NOT NULL",
                              arguments: [id]).map { [UInt8]($0) }
        }
    }
}

struct SQLiteTransaction: StoreTransaction {
    let db: Database
    let statements: StatementCache

    /// A savepoint from cached statements: GRDB's `inSavepoint` parses its SQL on every
    /// call, and this runs once per request.
    ///
    /// SQLite may roll back the whole transaction by itself (SQLITE_FULL, an I/O error).
    /// A SAVEPOINT issued then would open a new transaction and its RELEASE would commit
    /// it, requests answered with errors included: so outside a transaction nothing more
    /// runs, and the batch ends with `TransactionAborted`.
    func isolated<T>(_ body: () throws -> T) throws -> T {
        guard db.isInsideTransaction else { throw TransactionAborted() }
        try RawStatement(db, statements, "SAVEPOINT request").run()
        do {
            let result = try body()
            guard db.isInsideTransaction else { throw TransactionAborted() }
            try RawStatement(db, statements, "RELEASE SAVEPOINT request").run()
            return result
        } catch {
            guard db.isInsideTransaction else { throw TransactionAborted(cause: error) }
            try RawStatement(db, statements, "ROLLBACK TO SAVEPOINT request").run()
            try RawStatement(db, statements, "RELEASE SAVEPOINT request").run()
            throw error
        }
    }

    func exec(_ sql: String, _ args: StatementArguments) throws {
        try db.cachedStatement(sql: sql).execute(arguments: args)
    }

    func row(_ sql: String, _ args: StatementArguments) throws -> Row? {
        try Row.fetchOne(db.cachedStatement(sql: sql), arguments: args)
    }

    func rows(_ sql: String, _ args: StatementArguments) throws -> [Row] {
        try Row.fetchAll(db.cachedStatement(sql: sql), arguments: args)
    }

    func recordHealthCheck(at: Int) throws {
        try exec("INSERT OR REPLACE INTO health (id, checked_at) VALUES (1, ?)", [at])
    }

    // MARK: Users

    func createUser(_ user: User, recoveryHash: [UInt8], at: Int) throws {
        try exec("INSERT INTO users (id, name, created_at, admin, recovery_hash) VALUES (?, ?, ?, ?, ?)",
                 [user.id, user.name, at, user.admin, Data(recoveryHash)])
    }

    func user(id: String) throws -> User? {
        try row("SELECT id, name, admin FROM users WHERE id = ?", [id]).map { User(id: $0[0], name: $0[1], admin: $0[2]) }
    }

    func renameUser(id: String, name: String) throws {
        try exec("UPDATE users SET name = ? WHERE id = ?", [name, id])
    }

    // MARK: Conversations

    func createConversation(id: String, title: String, by userId: String, at: Int) throws {
        try exec("INSERT INTO conversations (id, title, created_at, active_at, created_by) VALUES (?, ?, ?, ?, ?)",
                 [id, title, at, at, userId])
    }

    private func listedMembers(_ conversationId: String) throws -> [Member] {
        try rows("""
            SELECT u.id, u.name FROM members m JOIN users u ON u.id = m.user_id
            WHERE m.conversation_id = ? ORDER BY m.joined_at, m.user_id LIMIT ?
            """, [conversationId, Limits.listedMembers]).map { Member(userId: $0[0], name: $0[1]) }
    }

    private func memberCount(_ conversationId: String) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM members WHERE conversation_id = ?"),
                         arguments: [conversationId]) ?? 0
    }

    private func conversation(_ r: Row) throws -> Conversation {
        let id: String = r[0]
        let direct = try directPeople(conversationId: id)
        return Conversation(id: id, title: r[1], createdAt: r[2], lastSeq: r[3],
                            members: try listedMembers(id), memberCount: try memberCount(id),
                            directUserIds: direct?.map(\.userId), directNames: direct?.map(\.name), createdBy: r[4])
    }

    /// A conversation's last seq and last activity are read from its messages (one
    /// index seek each), not kept in its row: that was one more UPDATE for every message.
    /// The `last_seq` and `active_at` columns stopped moving with messages then.
    private static let lastSeq = "COALESCE((SELECT MAX(seq) FROM messages WHERE conversation_id = c.id), 0)"
    private static let activeAt = """
        COALESCE((SELECT created_at FROM messages WHERE conversation_id = c.id ORDER BY seq DESC LIMIT 1), c.active_at)
        """

    func conversation(id: String) throws -> Conversation? {
        try row("SELECT c.id, c.title, c.created_at, \(Self.lastSeq), c.created_by FROM conversations c WHERE c.id = ?",
                [id]).map(conversation)
    }

    func members(conversationId: String, userIds: [String]) throws -> [Member] {
        try userIds.compactMap { uid in
            try row("""
                SELECT u.id, u.name FROM members m JOIN users u ON u.id = m.user_id
                WHERE m.conversation_id = ? AND m.user_id = ?
                """, [conversationId, uid]).map { Member(userId: $0[0], name: $0[1]) }
        }
    }

    func conversations(of userId: String) throws -> [Conversation] {
        try rows("""
            SELECT c.id, c.title, c.created_at, \(Self.lastSeq), c.created_by, m.read_seq, m.notify FROM conversations c
            JOIN members m ON m.conversation_id = c.id
            WHERE m.user_id = ? ORDER BY \(Self.activeAt) DESC, c.id
            """, [userId]).map { r in
                var c = try conversation(r)
                c.lastReadSeq = r[5]
                c.notify = NotifyLevel(code: r[6])
                return c
            }
    }

    func conversationIds(of userId: String) throws -> [String] {
        try String.fetchAll(db.cachedStatement(sql: "SELECT conversation_id FROM members WHERE user_id = ?"),
                            arguments: [userId])
    }

    func isMember(conversationId: String, userId: String) throws -> Bool {
        let q = try RawStatement(db, statements, "SELECT 1 FROM members WHERE conversation_id = ? AND user_id = ?")
        q.bind(1, conversationId)
        q.bind(2, userId)
        defer { q.done() }
        return try q.firstRow()
    }

    func addMember(conversationId: String, userId: String, at: Int) throws -> Bool {
        try exec("INSERT OR IGNORE INTO members (conversation_id, user_id, joined_at) VALUES (?, ?, ?)",
                 [conversationId, userId, at])
        guard db.changesCount > 0 else { return false }
        try exec("DELETE FROM former_members WHERE conversation_id = ? AND user_id = ?", [conversationId, userId])
        return true
    }


    // MARK: Messages

    func lastSeq(conversationId: String) throws -> Int? {
        let q = try RawStatement(db, statements, """
            SELECT COALESCE((SELECT MAX(seq) FROM messages WHERE conversation_id = c.id), 0) FROM conversations c WHERE c.id = ?
            """)
        q.bind(1, conversationId)
        defer { q.done() }
        return try q.firstRow() ? q.int(0) : nil
    }

    func insert(_ m: StoredMessage) throws -> Bool {
        let q = try RawStatement(db, statements, """
            INSERT INTO messages (conversation_id, seq, client_id, sender_id, created_at, body,
                                  sender_participant_id, session_id, session_version, superseded_by, summary)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (sender_id, client_id) DO NOTHING
            """)
        q.bind(1, m.conversationId); q.bind(2, m.seq); q.bind(3, m.clientId); q.bind(4, m.sender)
        q.bind(5, m.createdAt); q.bind(6, m.body); q.bind(7, m.senderParticipantId)
        q.bind(8, m.sessionId); q.bind(9, m.sessionVersion); q.bind(10, m.supersededBy); q.bind(11, m.summary)
        try q.run()
        return db.changesCount > 0
    }

    private static let columns = """
        conversation_id, seq, client_id, sender_id, created_at, body,
        sender_participant_id, session_id, session_version,
        \(supersededBy), summary, deleted_at
        """

    /// A session message is superseded by the next version of its session, found through
    /// `messages_by_session` when read instead of written into the old row on every
    /// update. Rows superseded before that change carry it in `superseded_by`.
    private static let supersededBy = """
        COALESCE(superseded_by, (SELECT n.seq FROM messages n WHERE n.conversation_id = messages.conversation_id
            AND n.session_id = messages.session_id AND n.session_version = messages.session_version + 1))
        """

    private static func message(_ r: Row) -> StoredMessage {
        StoredMessage(
            conversationId: r[0], seq: r[1], clientId: r[2], sender: r[3], createdAt: r[4],
            body: [UInt8](r[5] as Data),
            senderParticipantId: r[6], sessionId: r[7], sessionVersion: r[8], supersededBy: r[9], summary: r[10],
            deletedAt: r[11])
    }

    func message(conversationId: String, seq: Int) throws -> StoredMessage? {
        try row("SELECT \(Self.columns) FROM messages WHERE conversation_id = ? AND seq = ?",
                [conversationId, seq]).map(Self.message)
    }

    func clientIdUse(sender: String, clientId: String) throws -> (conversationId: String, seq: Int)? {
        let q = try RawStatement(db, statements, "SELECT conversation_id, seq FROM messages WHERE sender_id = ? AND client_id = ?")
        q.bind(1, sender)
        q.bind(2, clientId)
        defer { q.done() }
        guard try q.firstRow() else { return nil }
        return (q.text(0), q.int(1))
    }

    func messages(conversationId: String, afterSeq: Int, limit: Int) throws -> [StoredMessage] {
        try rows("""
            SELECT \(Self.columns) FROM messages WHERE conversation_id = ? AND seq > ? ORDER BY seq LIMIT ?
            """, [conversationId, afterSeq, limit]).map(Self.message)
    }

    func messages(conversationId: String, beforeSeq: Int, limit: Int) throws -> [StoredMessage] {
        try rows("""
            SELECT \(Self.columns) FROM messages WHERE conversation_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?
            """, [conversationId, beforeSeq, limit]).map(Self.message).reversed()
    }

    func message(conversationId: String, sessionId: String, version: Int) throws -> StoredMessage? {
        try row("""
            SELECT \(Self.columns) FROM messages WHERE conversation_id = ? AND session_id = ? AND session_version = ?
            """, [conversationId, sessionId, version]).map(Self.message)
    }

    func setSummary(conversationId: String, seq: Int, summary: String) throws {
        try exec("UPDATE messages SET summary = ? WHERE conversation_id = ? AND seq = ?", [summary, conversationId, seq])
    }

    /// A session's head is its latest message (through `messages_by_session`); its row
    /// says which app it belongs to. Moving the head then writes only the new message.
    /// (The row's `version` and `current_seq` stopped moving with it then.)
    func session(conversationId: String, id: String) throws -> SessionHead? {
        try row("""
            SELECT s.app_id, m.session_version, m.seq FROM sessions s
            JOIN messages m ON m.conversation_id = s.conversation_id AND m.session_id = s.id
            WHERE s.conversation_id = ? AND s.id = ? ORDER BY m.session_version DESC LIMIT 1
            """, [conversationId, id]).map { SessionHead(appId: $0[0], version: $0[1], currentSeq: $0[2]) }
    }

    /// Version 1 is a new session (the engine found none); a later version is the
    /// message the engine stores next (see `session`), so there is nothing to write.
    func setSession(conversationId: String, id: String, head: SessionHead) throws {
        guard head.version == 1 else { return }
        let q = try RawStatement(db, statements, """
            INSERT INTO sessions (conversation_id, id, app_id, version, current_seq) VALUES (?, ?, ?, ?, ?)
            """)
        q.bind(1, conversationId); q.bind(2, id); q.bind(3, head.appId); q.bind(4, head.version); q.bind(5, head.currentSeq)
        try q.run()
    }

    // MARK: Apps

    func installedApps(of userId: String) throws -> [String] {
        try String.fetchAll(db.cachedStatement(sql: "SELECT app_id FROM installed_apps WHERE user_id = ? ORDER BY app_id"),
                            arguments: [userId])
    }

    func install(appId: String, for userId: String) throws {
        try exec("INSERT OR IGNORE INTO installed_apps (user_id, app_id) VALUES (?, ?)", [userId, appId])
    }

    func uninstall(appId: String, for userId: String) throws {
        try exec("DELETE FROM installed_apps WHERE user_id = ? AND app_id = ?", [userId, appId])
    }

    func participantId(userId: String, appId: String) throws -> String? {
        try row("SELECT participant_id FROM participants WHERE user_id = ? AND app_id = ?", [userId, appId])
            .map { $0[0] }
    }

    func appData(userId: String, appId: String) throws -> [(key: String, value: [UInt8])] {
        try rows("SELECT key, value FROM app_data WHERE user_id = ? AND app_id = ? ORDER BY key", [userId, appId])
            .map { (key: $0[0], value: [UInt8]($0[1] as Data)) }
    }

    func appDataUsage(userId: String, appId: String, except key: String) throws -> (keys: Int, bytes: Int) {
        // length() of a blob reads its size from the record header, not the bytes
        try row("""
            SELECT count(*), coalesce(sum(length(CAST(key AS BLOB)) + length(value)), 0) FROM app_data
            WHERE user_id = ? AND app_id = ? AND key != ?
            """, [userId, appId, key]).map { (keys: $0[0], bytes: $0[1]) } ?? (0, 0)
    }

    func setAppData(userId: String, appId: String, key: String, value: [UInt8]?) throws {
        if let value {
            try exec("""
                INSERT INTO app_data (user_id, app_id, key, value) VALUES (?, ?, ?, ?)
                ON CONFLICT (user_id, app_id, key) DO UPDATE SET value = excluded.value
                """, [userId, appId, key, Data(value)])
        } else {
            try exec("DELETE FROM app_data WHERE user_id = ? AND app_id = ? AND key = ?", [userId, appId, key])
        }
    }

    func setParticipantId(_ id: String, userId: String, appId: String) throws {
        try exec("INSERT INTO participants (user_id, app_id, participant_id) VALUES (?, ?, ?)", [userId, appId, id])
    }
}
