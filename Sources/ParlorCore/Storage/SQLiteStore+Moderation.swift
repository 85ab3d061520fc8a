import Foundation
import GRDB

/// Admins, leaving and removal, invites, deleted messages and the images they used.
extension SQLiteTransaction {
    func isAdmin(userId: String) throws -> Bool {
        try row("SELECT admin FROM users WHERE id = ?", [userId]).map { $0[0] as Bool } ?? false
    }

    func removeMember(conversationId: String, userId: String, removedAt: Int?) throws -> Bool {
        try exec("DELETE FROM members WHERE conversation_id = ? AND user_id = ?", [conversationId, userId])
        guard db.changesCount > 0 else { return false }
        try exec("""
            INSERT INTO former_members (conversation_id, user_id, removed_at) VALUES (?, ?, ?)
            ON CONFLICT (conversation_id, user_id) DO UPDATE SET removed_at = excluded.removed_at
            """, [conversationId, userId, removedAt])
        return true
    }

    func removedAt(conversationId: String, userId: String) throws -> Int? {
        try row("SELECT removed_at FROM former_members WHERE conversation_id = ? AND user_id = ?",
                [conversationId, userId]).flatMap { $0[0] as Int? }
    }

    func formerMembers(conversationId: String, userIds: [String]) throws -> [Member] {
        try userIds.compactMap { uid in
            try row("""
                SELECT u.id, u.name FROM former_members f JOIN users u ON u.id = f.user_id
                WHERE f.conversation_id = ? AND f.user_id = ?
                """, [conversationId, uid]).map { Member(userId: $0[0], name: $0[1]) }
        }
    }

    func renameConversation(id: String, title: String) throws {
        try exec("UPDATE conversations SET title = ? WHERE id = ?", [title, id])
    }

    private static let inviteColumns =
        "id, conversation_id, created_by, created_at, expires_at, max_uses, uses, revoked_at"

    private static func invite(_ r: Row) -> Invite {
        Invite(id: r[0], conversationId: r[1], createdBy: r[2], createdAt: r[3], expiresAt: r[4],
               maxUses: r[5], uses: r[6], revokedAt: r[7])
    }

    func createInvite(_ i: Invite, codeHash: [UInt8]) throws {
        try exec("""
            INSERT INTO invites (id, code_hash, conversation_id, created_by, created_at, expires_at, max_uses)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, [i.id, Data(codeHash), i.conversationId, i.createdBy, i.createdAt, i.expiresAt, i.maxUses])
    }

    func invite(codeHash: [UInt8]) throws -> Invite? {
        try row("SELECT \(Self.inviteColumns) FROM invites WHERE code_hash = ?", [Data(codeHash)]).map(Self.invite)
    }

    func invite(id: String) throws -> Invite? {
        try row("SELECT \(Self.inviteColumns) FROM invites WHERE id = ?", [id]).map(Self.invite)
    }

    func invites(conversationId: String?, createdBy: String?, at: Int, limit: Int) throws -> [Invite] {
        try rows("""
            SELECT \(Self.inviteColumns) FROM invites
            WHERE conversation_id IS ? AND revoked_at IS NULL AND expires_at > ?
              AND (max_uses IS NULL OR uses < max_uses) AND (?3 IS NULL OR created_by = ?3)
            ORDER BY created_at, id LIMIT ?4
            """, [conversationId, at, createdBy, limit]).map(Self.invite)
    }

    func countInviteUse(id: String) throws {
        try exec("UPDATE invites SET uses = uses + 1 WHERE id = ?", [id])
    }

    func revokeInvite(id: String, at: Int) throws {
        try exec("UPDATE invites SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", [at, id])
    }

    func markDeleted(conversationId: String, seq: Int, at: Int) throws {
        try exec("UPDATE messages SET body = ?, deleted_at = ? WHERE conversation_id = ? AND seq = ?",
                 [Data(#"{"kind":"deleted"}"#.utf8), at, conversationId, seq])
    }

    func setBody(conversationId: String, seq: Int, body: [UInt8]) throws {
        try exec("UPDATE messages SET body = ? WHERE conversation_id = ? AND seq = ?", [Data(body), conversationId, seq])
    }

    func addImageRefs(_ hashes: [String], conversationId: String, seq: Int) throws {
        for h in hashes {
            try exec("INSERT OR IGNORE INTO message_blobs (hash, conversation_id, seq) VALUES (?, ?, ?)",
                     [h, conversationId, seq])
            try exec("UPDATE blobs SET referenced = 1 WHERE hash = ? AND referenced = 0", [h])
        }
    }

    func removeImageRefs(conversationId: String, seq: Int) throws -> [String] {
        let hashes = try String.fetchAll(
            db.cachedStatement(sql: "SELECT hash FROM message_blobs WHERE conversation_id = ? AND seq = ?"),
            arguments: [conversationId, seq])
        try exec("DELETE FROM message_blobs WHERE conversation_id = ? AND seq = ?", [conversationId, seq])
        return try hashes.filter { h in try row("SELECT 1 FROM message_blobs WHERE hash = ? LIMIT 1", [h]) == nil }
    }
}

/// Stored images: who uploaded each, its size and age.
extension SQLiteTransaction {
    func recordBlob(hash: String, size: Int, by userId: String, at: Int) throws {
        try exec("""
            INSERT INTO blobs (hash, size, uploaded_by, created_at, referenced)
            VALUES (?1, ?2, ?3, ?4, EXISTS (SELECT 1 FROM message_blobs WHERE hash = ?1))
            ON CONFLICT (hash) DO UPDATE SET created_at = excluded.created_at
            """, [hash, size, userId, at])
        try exec("INSERT OR IGNORE INTO blob_uploads (hash, user_id) VALUES (?, ?)", [hash, userId])
    }

    func mayShowImage(hash: String, userId: String) throws -> Bool {
        try row("""
            SELECT EXISTS (SELECT 1 FROM blob_uploads WHERE hash = ?1 AND user_id = ?2)
                OR EXISTS (SELECT 1 FROM message_blobs mb JOIN members m ON m.conversation_id = mb.conversation_id
                           AND m.user_id = ?2 WHERE mb.hash = ?1)
            """, [hash, userId]).map { $0[0] } ?? false
    }

    func storedImageBytes(of userId: String) throws -> Int {
        try row("SELECT coalesce(sum(size), 0) FROM blobs WHERE uploaded_by = ?", [userId]).map { $0[0] } ?? 0
    }

    func unreferencedBlobs(before: Int, limit: Int) throws -> [String] {
        try rows("""
            SELECT hash FROM blobs WHERE referenced = 0 AND created_at < ?
              AND NOT EXISTS (SELECT 1 FROM message_blobs m WHERE m.hash = blobs.hash)
            ORDER BY created_at LIMIT ?
            """, [before, limit]).map { $0[0] }
    }

    func blobIsKnown(hash: String) throws -> Bool {
        try row("""
            SELECT EXISTS (SELECT 1 FROM blobs WHERE hash = ?1) OR EXISTS (SELECT 1 FROM message_blobs WHERE hash = ?1)
            """, [hash]).map { $0[0] } ?? false
    }

    func forgetBlob(hash: String) throws {
        try exec("DELETE FROM blobs WHERE hash = ?", [hash])
        try exec("DELETE FROM blob_uploads WHERE hash = ?", [hash])
    }
}
