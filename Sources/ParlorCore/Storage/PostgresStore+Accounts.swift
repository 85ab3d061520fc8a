
/// Devices, links, recovery keys, invites, images and the admin views, as in
/// SQLiteStore+Devices/+Moderation/+Admin: every secret is stored as its SHA-256.
extension PostgresTransaction {
    private static func device(_ r: PGRow) -> Device {
        Device(id: r[0], userId: r[1], name: r[2], createdAt: r[3], lastSeenAt: r[4])
    }

    func device(tokenHash: [UInt8]) throws -> (device: Device, user: User)? {
        try row("""
            SELECT d.id, d.user_id, d.name, d.created_at, d.last_seen_at, u.name, u.admin
            FROM devices d JOIN users u ON u.id = d.user_id
            WHERE d.token_hash = $1 AND u.deactivated_at IS NULL
            """, [tokenHash]).map { (Self.device($0), User(id: $0[1], name: $0[5], admin: $0[6])) }
    }

    func user(recoveryHash: [UInt8]) throws -> User? {
        try row("SELECT id, name, admin FROM users WHERE recovery_hash = $1 AND deactivated_at IS NULL", [recoveryHash])
            .map { User(id: $0[0], name: $0[1], admin: $0[2]) }
    }

    func setRecoveryHash(userId: String, _ hash: [UInt8]) throws {
        try exec("UPDATE users SET recovery_hash = $1 WHERE id = $2", [hash, userId])
    }

    func createDevice(_ d: Device, tokenHash: [UInt8]) throws {
        try exec("""
            INSERT INTO devices (id, user_id, name, token_hash, created_at, last_seen_at) VALUES ($1, $2, $3, $4, $5, $6)
            """, [d.id, d.userId, d.name, tokenHash, d.createdAt, d.lastSeenAt])
    }

    func devices(of userId: String) throws -> [Device] {
        try rows("""
            SELECT id, user_id, name, created_at, last_seen_at FROM devices WHERE user_id = $1 ORDER BY created_at, id
            """, [userId]).map(Self.device)
    }

    func activeDevices(among ids: [String]) throws -> Set<String> {
        Set(try rows("""
            SELECT d.id FROM devices d JOIN users u ON u.id = d.user_id
            WHERE d.id = ANY($1::text[]) AND u.deactivated_at IS NULL
            """, [Self.textArray(ids)]).map { $0[0] })
    }

    func touchDevice(id: String, at: Int) throws {
        try exec("UPDATE devices SET last_seen_at = $1 WHERE id = $2", [at, id])
    }

    func renameDevice(id: String, userId: String, name: String) throws -> Bool {
        try exec("UPDATE devices SET name = $1 WHERE id = $2 AND user_id = $3", [name, id, userId]) > 0
    }

    func deleteDevices(userId: String, only: String?, except: String?) throws -> [String] {
        let ids = try devices(of: userId).map(\.id).filter { id in (only.map { id == $0 } ?? true) && id != except }
        for id in ids { try exec("DELETE FROM devices WHERE id = $1", [id]) }
        // As SQLite's: a link not yet used is a device to come.
        try exec("DELETE FROM device_links WHERE user_id = $1", [userId])
        return ids
    }

    func createDeviceLink(_ l: DeviceLink, tokenHash: [UInt8], codeHash: [UInt8]) throws {
        try exec("DELETE FROM device_links WHERE expires_at < $1", [l.createdAt])
        try exec("""
            INSERT INTO device_links (id, user_id, token_hash, code_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)
            """, [l.id, l.userId, tokenHash, codeHash, l.createdAt, l.expiresAt])
    }

    func deviceLink(hash: [UInt8]) throws -> DeviceLink? {
        try row("""
            SELECT id, user_id, created_at, expires_at, used_at FROM device_links WHERE token_hash = $1 OR code_hash = $1
            """, [hash]).map { DeviceLink(id: $0[0], userId: $0[1], createdAt: $0[2], expiresAt: $0[3], usedAt: $0[4]) }
    }

    func useDeviceLink(id: String, at: Int) throws {
        try exec("UPDATE device_links SET used_at = $1 WHERE id = $2", [at, id])
    }

    // MARK: Invites

    private static let inviteColumns =
        "id, conversation_id, created_by, created_at, expires_at, max_uses, uses, revoked_at"

    private static func invite(_ r: PGRow) -> Invite {
        Invite(id: r[0], conversationId: r[1], createdBy: r[2], createdAt: r[3], expiresAt: r[4],
               maxUses: r[5], uses: r[6], revokedAt: r[7])
    }

    func createInvite(_ i: Invite, codeHash: [UInt8]) throws {
        try exec("""
            INSERT INTO invites (id, code_hash, conversation_id, created_by, created_at, expires_at, max_uses)
            VALUES ($1, $2, $3, $4, $5, $6, $7)
            """, [i.id, codeHash, i.conversationId, i.createdBy, i.createdAt, i.expiresAt, i.maxUses])
    }

    func invite(codeHash: [UInt8]) throws -> Invite? {
        try row("SELECT \(Self.inviteColumns) FROM invites WHERE code_hash = $1", [codeHash]).map(Self.invite)
    }

    func invite(id: String) throws -> Invite? {
        try row("SELECT \(Self.inviteColumns) FROM invites WHERE id = $1", [id]).map(Self.invite)
    }

    func invites(conversationId: String?, createdBy: String?, at: Int, limit: Int) throws -> [Invite] {
        try rows("""
            SELECT \(Self.inviteColumns) FROM invites
            WHERE conversation_id IS NOT DISTINCT FROM $1::text AND revoked_at IS NULL AND expires_at > $2
              AND (max_uses IS NULL OR uses < max_uses) AND ($3::text IS NULL OR created_by = $3::text)
            ORDER BY created_at, id LIMIT $4
            """, [conversationId, at, createdBy, limit]).map(Self.invite)
    }

    func countInviteUse(id: String) throws {
        try exec("UPDATE invites SET uses = uses + 1 WHERE id = $1", [id])
    }

    func revokeInvite(id: String, at: Int) throws {
        try exec("UPDATE invites SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL", [at, id])
    }

    // MARK: Images

    func addImageRefs(_ hashes: [String], conversationId: String, seq: Int) throws {
        for h in hashes {
            try exec("INSERT INTO message_blobs (hash, conversation_id, seq) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                     [h, conversationId, seq])
            try exec("UPDATE blobs SET referenced = 1 WHERE hash = $1 AND referenced = 0", [h])
        }
    }

    func removeImageRefs(conversationId: String, seq: Int) throws -> [String] {
        let hashes: [String] = try rows("SELECT hash FROM message_blobs WHERE conversation_id = $1 AND seq = $2",
                                        [conversationId, seq]).map { $0[0] }
        try exec("DELETE FROM message_blobs WHERE conversation_id = $1 AND seq = $2", [conversationId, seq])
        return try hashes.filter { h in try row("SELECT 1 FROM message_blobs WHERE hash = $1 LIMIT 1", [h]) == nil }
    }

    func recordBlob(hash: String, size: Int, by userId: String, at: Int) throws {
        try exec("""
            INSERT INTO blobs (hash, size, uploaded_by, created_at, referenced)
            VALUES ($1, $2, $3, $4, (EXISTS (SELECT 1 FROM message_blobs WHERE hash = $1))::int)
            ON CONFLICT (hash) DO UPDATE SET created_at = excluded.created_at
            """, [hash, size, userId, at])
        try exec("INSERT INTO blob_uploads (hash, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING", [hash, userId])
    }

    func mayShowImage(hash: String, userId: String) throws -> Bool {
        try row("""
            SELECT (EXISTS (SELECT 1 FROM blob_uploads WHERE hash = $1 AND user_id = $2)
                OR EXISTS (SELECT 1 FROM message_blobs mb JOIN members m ON m.conversation_id = mb.conversation_id
                           AND m.user_id = $2 WHERE mb.hash = $1))::int
            """, [hash, userId]).map { $0[0] } ?? false
    }

    func storedImageBytes(of userId: String) throws -> Int {
        try row("SELECT coalesce(sum(size), 0)::bigint FROM blobs WHERE uploaded_by = $1", [userId]).map { $0[0] } ?? 0
    }

    func unreferencedBlobs(before: Int, limit: Int) throws -> [String] {
        try rows("""
            SELECT hash FROM blobs WHERE referenced = 0 AND created_at < $1
              AND NOT EXISTS (SELECT 1 FROM message_blobs m WHERE m.hash = blobs.hash)
            ORDER BY created_at LIMIT $2
            """, [before, limit]).map { $0[0] }
    }

    func blobIsKnown(hash: String) throws -> Bool {
        try row("""
            SELECT (EXISTS (SELECT 1 FROM blobs WHERE hash = $1) OR EXISTS (SELECT 1 FROM message_blobs WHERE hash = $1))::int
            """, [hash]).map { $0[0] } ?? false
    }

    func forgetBlob(hash: String) throws {
        try exec("DELETE FROM blobs WHERE hash = $1", [hash])
        try exec("DELETE FROM blob_uploads WHERE hash = $1", [hash])
    }

    func messagesShowing(image hash: String) throws -> [(conversationId: String, seq: Int)] {
        try rows("SELECT conversation_id, seq FROM message_blobs WHERE hash = $1", [hash]).map { ($0[0], $0[1]) }
    }

    // MARK: Administration

    func users(after: String?, limit: Int) throws -> [UserSummary] {
        try rows("""
            SELECT u.id, u.name, u.admin, u.created_at, u.deactivated_at, u.deleted_at,
                   (SELECT count(*) FROM devices d WHERE d.user_id = u.id)
            FROM users u WHERE u.id > $1 ORDER BY u.id LIMIT $2
            """, [after ?? "", limit]).map {
            UserSummary(user: User(id: $0[0], name: $0[1], admin: $0[2]), createdAt: $0[3], deactivatedAt: $0[4],
                        deletedAt: $0[5], devices: $0[6])
        }
    }

    func setAdmin(userId: String, _ admin: Bool) throws -> Bool {
        try exec("UPDATE users SET admin = $1 WHERE id = $2", [admin, userId]) > 0
    }

    func reactivate(userId: String) throws -> Bool {
        try exec("UPDATE users SET deactivated_at = NULL WHERE id = $1 AND deactivated_at IS NOT NULL AND deleted_at IS NULL",
                 [userId]) > 0
    }

    func accountStatus(userId: String) throws -> AccountStatus? {
        try row("SELECT deactivated_at IS NOT NULL, deleted_at IS NOT NULL FROM users WHERE id = $1", [userId])
            .map { AccountStatus(deactivated: $0[0], deleted: $0[1]) }
    }

    func activeAdminCount() throws -> Int {
        // The admins' rows stay locked to the end of the transaction: two admins deleting
        // their accounts at once on two nodes each counted the other and left none. The
        // second now waits, and counts again once the first committed.
        try row("""
            SELECT count(*) FROM (SELECT 1 FROM users WHERE admin = 1 AND deactivated_at IS NULL FOR UPDATE) a
            """, []).map { $0[0] } ?? 0
    }

    func deleteAccount(userId: String, name: String, at: Int) throws {
        _ = try deactivate(userId: userId, at: at)
        try exec("UPDATE users SET name = $1, admin = 0, deleted_at = $2 WHERE id = $3", [name, at, userId])
        try exec("DELETE FROM app_data WHERE user_id = $1", [userId])
        try exec("DELETE FROM installed_apps WHERE user_id = $1", [userId])
    }

    func deactivate(userId: String, at: Int) throws -> Bool {
        guard try exec("UPDATE users SET deactivated_at = $1, recovery_hash = NULL WHERE id = $2 AND deactivated_at IS NULL",
                       [at, userId]) > 0 else { return false }
        try exec("DELETE FROM devices WHERE user_id = $1", [userId])
        try exec("DELETE FROM device_links WHERE user_id = $1", [userId])
        try exec("UPDATE invites SET revoked_at = $1 WHERE created_by = $2 AND revoked_at IS NULL", [at, userId])
        return true
    }

    func pruneInvites(before: Int) throws -> Int {
        try exec("""
            DELETE FROM invites WHERE revoked_at < $1 OR expires_at < $1
                OR (max_uses IS NOT NULL AND uses >= max_uses AND created_at < $1)
            """, [before])
    }

    func listedInvites(conversationId: String?, at: Int, limit: Int) throws -> [ListedInvite] {
        try rows(ListedInvitesSQL.query(oneConversation: conversationId != nil) { "$\($0)" },
                 conversationId.map { [at, limit, $0] } ?? [at, limit]).map {
            ListedInvite(invite: Self.invite($0), conversationTitle: $0[8], makerName: $0[9])
        }
    }

    /// Several nodes sweep the same queue: each takes rows no other node holds.
    func pendingAdminCommands(limit: Int) throws -> [(id: Int, request: [UInt8])] {
        try rows("""
            SELECT id, request FROM admin_commands WHERE done_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED
            """, [limit]).map { ($0[0], $0[1]) }
    }

    func answerAdminCommand(id: Int, reply: [UInt8], at: Int) throws {
        try exec("UPDATE admin_commands SET reply = $1, done_at = $2 WHERE id = $3", [reply, at, id])
        try exec("DELETE FROM admin_commands WHERE done_at < $1", [at - 3_600_000])
    }
}
