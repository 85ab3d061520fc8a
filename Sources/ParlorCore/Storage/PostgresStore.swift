
/// The system of record of a cluster: several Parlor nodes share one PostgreSQL
/// database. Each node's engine thread holds one connection and runs its batches there
/// as it does on SQLite: one transaction per batch (group commit), a savepoint per
/// request, acknowledgements only after COMMIT returned.
///
/// What SQLite got from being the only writer, PostgreSQL gets from row locks: the
/// next seq of a conversation is read `FOR UPDATE` (`lastSeq`), so nodes take turns
/// per conversation and each conversation keeps one order.
public final class PostgresStore: ParlorStore {
    let db: PGConnection
    public var sharedWithOtherNodes: Bool { true }

    /// `url` is a libpq connection string (`postgres://user@host:5432/db`).
    /// The newest schema this build knows.
    public static var schemaVersion: Int { PostgresSchema.migrations.last?.version ?? 0 }

    /// How long one round trip may go unanswered (`--store-timeout-seconds`). Well above
    /// `lock_timeout` (2 s), which must refuse a locked conversation's sends first
    /// (`server_busy`, the connection kept), and above a busy database's slow commit;
    /// low enough that clients get an error, and /health a 503, before they give up on
    /// the node themselves.
    public static let defaultTimeoutSeconds = 10

    /// `migrate` and `announce` as SQLiteStore's; `timeoutSeconds`: how long one round
    /// trip to PostgreSQL may go unanswered before the batch fails (`PGConnection+Wait`).
    public init(url: String, migrate: Bool = true, timeoutSeconds: Int = PostgresStore.defaultTimeoutSeconds,
                announce: ([String]) -> Void = { _ in }) throws {
        db = try PGConnection(url: url, timeoutSeconds: timeoutSeconds)
        // A large table's migration may take minutes; the node serves nothing meanwhile.
        try db.withoutDeadline { try PostgresSchema.migrate(db, apply: migrate, announce: announce) }
    }

    /// The node is stopping and PostgreSQL does not answer: the engine's waits end now,
    /// and every later batch fails at once. From any thread.
    public func stopWaiting() { db.stopWaiting() }

    public func write<T>(_ body: (any StoreTransaction) throws -> T) throws -> T {
        try db.reconnectIfBroken()
        do {
            try db.simple("BEGIN")
        } catch let e as PGError where !db.connected && !e.unanswered {
            // The server dropped the connection while idle (a restart, a failover, an
            // administrator): nothing of this batch has run yet, so connect and go on.
            // Not after a BEGIN that went unanswered: the batch has waited its deadline.
            try db.reconnectIfBroken()
            try db.simple("BEGIN")
        }
        do {
            let result = try body(PostgresTransaction(db: db))
            // A statement failed outside any savepoint: COMMIT would quietly roll back.
            guard db.inTransaction else { throw TransactionAborted() }
            try db.simple("COMMIT")
            return result
        } catch {
            if db.connected { try? db.simple("ROLLBACK") }
            throw error
        }
    }

    /// `parlor admin`: queue the frame for whichever node takes it first; returns its id.
    public func queueAdminCommand(_ frame: [UInt8], at: Int) throws -> Int {
        try db.run("INSERT INTO admin_commands (request, created_at) VALUES ($1, $2) RETURNING id", [frame, at])
            .rows[0][0]
    }

    /// A node's answer to a queued frame, once there is one.
    public func adminCommandReply(id: Int) throws -> [UInt8]? {
        try db.run("SELECT reply FROM admin_commands WHERE id = $1 AND done_at IS NOT NULL", [id]).rows.first?[0]
    }
}

struct PostgresTransaction: StoreTransaction {
    let db: PGConnection

    /// A failed statement outside a savepoint leaves the transaction unusable: the batch
    /// ends with `TransactionAborted` (as on SQLite after SQLITE_FULL). Inside one,
    /// rolling back to it undoes only this request.
    func isolated<T>(_ body: () throws -> T) throws -> T {
        guard db.inTransaction else { throw TransactionAborted() }
        try db.simple("SAVEPOINT request")
        do {
            let result = try body()
            guard db.inTransaction else { throw TransactionAborted() }
            try db.simple("RELEASE SAVEPOINT request")
            return result
        } catch {
            guard db.connected, db.inTransaction || db.transactionFailed else { throw TransactionAborted(cause: error) }
            try db.simple("ROLLBACK TO SAVEPOINT request")
            try db.simple("RELEASE SAVEPOINT request")
            throw error
        }
    }

    @discardableResult
    func exec(_ sql: String, _ args: [any PGParam]) throws -> Int { try db.run(sql, args).changed }
    func row(_ sql: String, _ args: [any PGParam]) throws -> PGRow? { try db.run(sql, args).rows.first }
    func rows(_ sql: String, _ args: [any PGParam]) throws -> [PGRow] { try db.run(sql, args).rows }

    func recordHealthCheck(at: Int) throws {
        try exec("INSERT INTO health (id, checked_at) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at",
                 [at])
    }

    // MARK: Users

    func createUser(_ user: User, recoveryHash: [UInt8], at: Int) throws {
        try exec("INSERT INTO users (id, name, created_at, admin, recovery_hash) VALUES ($1, $2, $3, $4, $5)",
                 [user.id, user.name, at, user.admin, recoveryHash])
    }

    func user(id: String) throws -> User? {
        try row("SELECT id, name, admin FROM users WHERE id = $1", [id]).map { User(id: $0[0], name: $0[1], admin: $0[2]) }
    }

    func renameUser(id: String, name: String) throws {
        try exec("UPDATE users SET name = $1 WHERE id = $2", [name, id])
    }

    func isAdmin(userId: String) throws -> Bool {
        try row("SELECT admin FROM users WHERE id = $1", [userId]).map { $0[0] as Bool } ?? false
    }

    func userCount() throws -> Int {
        try row("SELECT count(*) FROM users", []).map { $0[0] } ?? 0
    }

    // MARK: Conversations

    func createConversation(id: String, title: String, by userId: String, at: Int) throws {
        try exec("INSERT INTO conversations (id, title, created_at, active_at, created_by) VALUES ($1, $2, $3, $4, $5)",
                 [id, title, at, at, userId])
    }

    private func listedMembers(_ conversationId: String) throws -> [Member] {
        try rows("""
            SELECT u.id, u.name FROM members m JOIN users u ON u.id = m.user_id
            WHERE m.conversation_id = $1 ORDER BY m.joined_at, m.user_id LIMIT $2
            """, [conversationId, Limits.listedMembers]).map { Member(userId: $0[0], name: $0[1]) }
    }

    private func memberCount(_ conversationId: String) throws -> Int {
        try row("SELECT count(*) FROM members WHERE conversation_id = $1", [conversationId]).map { $0[0] } ?? 0
    }

    private func conversation(_ r: PGRow) throws -> Conversation {
        let id: String = r[0]
        let direct = try directPeople(conversationId: id)
        return Conversation(id: id, title: r[1], createdAt: r[2], lastSeq: r[3],
                            members: try listedMembers(id), memberCount: try memberCount(id),
                            directUserIds: direct?.map(\.userId), directNames: direct?.map(\.name), createdBy: r[4])
    }

    func conversation(id: String) throws -> Conversation? {
        try row("SELECT id, title, created_at, last_seq, created_by FROM conversations WHERE id = $1", [id])
            .map(conversation)
    }

    func members(conversationId: String, userIds: [String]) throws -> [Member] {
        try userIds.compactMap { uid in
            try row("""
                SELECT u.id, u.name FROM members m JOIN users u ON u.id = m.user_id
                WHERE m.conversation_id = $1 AND m.user_id = $2
                """, [conversationId, uid]).map { Member(userId: $0[0], name: $0[1]) }
        }
    }

    func conversations(of userId: String) throws -> [Conversation] {
        try rows("""
            SELECT c.id, c.title, c.created_at, c.last_seq, c.created_by, m.read_seq, m.notify FROM conversations c
            JOIN members m ON m.conversation_id = c.id
            WHERE m.user_id = $1 ORDER BY c.active_at DESC, c.id
            """, [userId]).map { r in
                var c = try conversation(r)
                c.lastReadSeq = r[5]
                c.notify = NotifyLevel(code: r[6])
                return c
            }
    }

    func conversationIds(of userId: String) throws -> [String] {
        try rows("SELECT conversation_id FROM members WHERE user_id = $1", [userId]).map { $0[0] }
    }

    func isMember(conversationId: String, userId: String) throws -> Bool {
        try row("SELECT 1 FROM members WHERE conversation_id = $1 AND user_id = $2", [conversationId, userId]) != nil
    }

    func addMember(conversationId: String, userId: String, at: Int) throws -> Bool {
        guard try exec("INSERT INTO members (conversation_id, user_id, joined_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                       [conversationId, userId, at]) > 0 else { return false }
        try exec("DELETE FROM former_members WHERE conversation_id = $1 AND user_id = $2", [conversationId, userId])
        return true
    }

    func removeMember(conversationId: String, userId: String, removedAt: Int?) throws -> Bool {
        guard try exec("DELETE FROM members WHERE conversation_id = $1 AND user_id = $2", [conversationId, userId]) > 0
        else { return false }
        try exec("""
            INSERT INTO former_members (conversation_id, user_id, removed_at) VALUES ($1, $2, $3)
            ON CONFLICT (conversation_id, user_id) DO UPDATE SET removed_at = excluded.removed_at
            """, [conversationId, userId, removedAt])
        return true
    }

    func removedAt(conversationId: String, userId: String) throws -> Int? {
        try row("SELECT removed_at FROM former_members WHERE conversation_id = $1 AND user_id = $2",
                [conversationId, userId]).flatMap { $0[0] }
    }

    func formerMembers(conversationId: String, userIds: [String]) throws -> [Member] {
        try userIds.compactMap { uid in
            try row("""
                SELECT u.id, u.name FROM former_members f JOIN users u ON u.id = f.user_id
                WHERE f.conversation_id = $1 AND f.user_id = $2
                """, [conversationId, uid]).map { Member(userId: $0[0], name: $0[1]) }
        }
    }

    func renameConversation(id: String, title: String) throws {
        try exec("UPDATE conversations SET title = $1 WHERE id = $2", [title, id])
    }

    // MARK: Messages and sessions

    func lastSeq(conversationId: String) throws -> Int? {
        // The row lock is what makes seq one order across nodes: held to COMMIT.
        try row("SELECT last_seq FROM conversations WHERE id = $1 FOR UPDATE", [conversationId]).map { $0[0] }
    }

    /// One statement for the whole set: the sweep asks every second.
    func lastSeqs(of conversationIds: [String]) throws -> [String: Int] {
        guard !conversationIds.isEmpty else { return [:] }
        var seqs: [String: Int] = [:]
        for r in try rows("SELECT id, last_seq FROM conversations WHERE id = ANY($1::text[])",
                          [Self.textArray(conversationIds)]) {
            seqs[r[0]] = r[1]
        }
        return seqs
    }

    /// Rows are locked in the order the sort gives them (LockRows runs above Sort).
    func lockConversations(_ ids: [String]) throws {
        guard !ids.isEmpty else { return }
        try exec("SELECT id FROM conversations WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE", [Self.textArray(ids)])
    }

    /// A text[] literal: each element quoted, its quotes and backslashes escaped.
    static func textArray(_ values: [String]) -> String {
        "{" + values.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "\"", with: "\\\"") + "\"" }.joined(separator: ",") + "}"
    }

    func insert(_ m: StoredMessage) throws -> Bool {
        let inserted = try exec("""
            INSERT INTO messages (conversation_id, seq, client_id, sender_id, created_at, body,
                                  sender_participant_id, session_id, session_version, superseded_by, summary)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
            ON CONFLICT (sender_id, client_id) DO NOTHING
            """, [m.conversationId, m.seq, m.clientId, m.sender, m.createdAt, m.body, m.senderParticipantId,
                  m.sessionId, m.sessionVersion, m.supersededBy, m.summary])
        guard inserted > 0 else { return false }
        try exec("UPDATE conversations SET last_seq = $1, active_at = $2 WHERE id = $3",
                 [m.seq, m.createdAt, m.conversationId])
        return true
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

    private static func message(_ r: PGRow) -> StoredMessage {
        StoredMessage(
            conversationId: r[0], seq: r[1], clientId: r[2], sender: r[3], createdAt: r[4], body: r[5],
            senderParticipantId: r[6], sessionId: r[7], sessionVersion: r[8], supersededBy: r[9], summary: r[10],
            deletedAt: r[11])
    }

    func message(conversationId: String, seq: Int) throws -> StoredMessage? {
        try row("SELECT \(Self.columns) FROM messages WHERE conversation_id = $1 AND seq = $2", [conversationId, seq])
            .map(Self.message)
    }

    func clientIdUse(sender: String, clientId: String) throws -> (conversationId: String, seq: Int)? {
        try row("SELECT conversation_id, seq FROM messages WHERE sender_id = $1 AND client_id = $2", [sender, clientId])
            .map { ($0[0], $0[1]) }
    }

    func messages(conversationId: String, afterSeq: Int, limit: Int) throws -> [StoredMessage] {
        try rows("""
            SELECT \(Self.columns) FROM messages WHERE conversation_id = $1 AND seq > $2 ORDER BY seq LIMIT $3
            """, [conversationId, afterSeq, limit]).map(Self.message)
    }

    func messages(conversationId: String, beforeSeq: Int, limit: Int) throws -> [StoredMessage] {
        try rows("""
            SELECT \(Self.columns) FROM messages WHERE conversation_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3
            """, [conversationId, beforeSeq, limit]).map(Self.message).reversed()
    }

    func message(conversationId: String, sessionId: String, version: Int) throws -> StoredMessage? {
        try row("""
            SELECT \(Self.columns) FROM messages WHERE conversation_id = $1 AND session_id = $2 AND session_version = $3
            """, [conversationId, sessionId, version]).map(Self.message)
    }

    func setSummary(conversationId: String, seq: Int, summary: String) throws {
        try exec("UPDATE messages SET summary = $1 WHERE conversation_id = $2 AND seq = $3", [summary, conversationId, seq])
    }

    func markDeleted(conversationId: String, seq: Int, at: Int) throws {
        try exec("UPDATE messages SET body = $1, deleted_at = $2 WHERE conversation_id = $3 AND seq = $4",
                 [Array(#"{"kind":"deleted"}"#.utf8), at, conversationId, seq])
    }

    func setBody(conversationId: String, seq: Int, body: [UInt8]) throws {
        try exec("UPDATE messages SET body = $1 WHERE conversation_id = $2 AND seq = $3", [body, conversationId, seq])
    }

    func session(conversationId: String, id: String) throws -> SessionHead? {
        try row("SELECT app_id, version, current_seq FROM sessions WHERE conversation_id = $1 AND id = $2",
                [conversationId, id]).map { SessionHead(appId: $0[0], version: $0[1], currentSeq: $0[2]) }
    }

    func setSession(conversationId: String, id: String, head: SessionHead) throws {
        try exec("""
            INSERT INTO sessions (conversation_id, id, app_id, version, current_seq) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (conversation_id, id) DO UPDATE SET version = excluded.version, current_seq = excluded.current_seq
            """, [conversationId, id, head.appId, head.version, head.currentSeq])
    }

    // MARK: Apps

    func installedApps(of userId: String) throws -> [String] {
        try rows("SELECT app_id FROM installed_apps WHERE user_id = $1 ORDER BY app_id", [userId]).map { $0[0] }
    }

    func install(appId: String, for userId: String) throws {
        try exec("INSERT INTO installed_apps (user_id, app_id) VALUES ($1, $2) ON CONFLICT DO NOTHING", [userId, appId])
    }

    func uninstall(appId: String, for userId: String) throws {
        try exec("DELETE FROM installed_apps WHERE user_id = $1 AND app_id = $2", [userId, appId])
    }

    func participantId(userId: String, appId: String) throws -> String? {
        try row("SELECT participant_id FROM participants WHERE user_id = $1 AND app_id = $2", [userId, appId]).map { $0[0] }
    }

    func setParticipantId(_ id: String, userId: String, appId: String) throws {
        try exec("INSERT INTO participants (user_id, app_id, participant_id) VALUES ($1, $2, $3)", [userId, appId, id])
    }

    func appData(userId: String, appId: String) throws -> [(key: String, value: [UInt8])] {
        try rows("SELECT key, value FROM app_data WHERE user_id = $1 AND app_id = $2 ORDER BY key", [userId, appId])
            .map { (key: $0[0], value: $0[1]) }
    }

    func appDataUsage(userId: String, appId: String, except key: String) throws -> (keys: Int, bytes: Int) {
        try row("""
            SELECT count(*)::bigint, coalesce(sum(octet_length(key) + octet_length(value)), 0)::bigint FROM app_data
            WHERE user_id = $1 AND app_id = $2 AND key != $3
            """, [userId, appId, key]).map { (keys: $0[0], bytes: $0[1]) } ?? (0, 0)
    }

    func setAppData(userId: String, appId: String, key: String, value: [UInt8]?) throws {
        if let value {
            try exec("""
                INSERT INTO app_data (user_id, app_id, key, value) VALUES ($1, $2, $3, $4)
                ON CONFLICT (user_id, app_id, key) DO UPDATE SET value = excluded.value
                """, [userId, appId, key, value])
        } else {
            try exec("DELETE FROM app_data WHERE user_id = $1 AND app_id = $2 AND key = $3", [userId, appId, key])
        }
    }
}
