import Foundation
import GRDB

/// What admins see and change, and the queue `parlor admin` talks to a running server by.
extension SQLiteTransaction {
    func users(after: String?, limit: Int) throws -> [UserSummary] {
        try rows("""
            SELECT u.id, u.name, u.admin, u.created_at, u.deactivated_at, u.deleted_at,
                   (SELECT count(*) FROM devices d WHERE d.user_id = u.id)
            FROM users u WHERE u.id > ? ORDER BY u.id LIMIT ?
            """, [after ?? "", limit]).map {
            UserSummary(user: User(id: $0[0], name: $0[1], admin: $0[2]), createdAt: $0[3], deactivatedAt: $0[4],
                        deletedAt: $0[5], devices: $0[6])
        }
    }

    func setAdmin(userId: String, _ admin: Bool) throws -> Bool {
        try exec("UPDATE users SET admin = ? WHERE id = ?", [admin, userId])
        return db.changesCount > 0
    }

    func reactivate(userId: String) throws -> Bool {
        try exec("UPDATE users SET deactivated_at = NULL WHERE id = ? AND deactivated_at IS NOT NULL AND deleted_at IS NULL",
                 [userId])
        return db.changesCount > 0
    }

    func activeAdminCount() throws -> Int {
        try row("SELECT count(*) FROM users WHERE admin = 1 AND deactivated_at IS NULL", []).map { $0[0] } ?? 0
    }

    func accountStatus(userId: String) throws -> AccountStatus? {
        try row("SELECT deactivated_at IS NOT NULL, deleted_at IS NOT NULL FROM users WHERE id = ?", [userId])
            .map { AccountStatus(deactivated: $0[0], deleted: $0[1]) }
    }

    func deleteAccount(userId: String, name: String, at: Int) throws {
        _ = try deactivate(userId: userId, at: at)
        try exec("UPDATE users SET name = ?, admin = 0, deleted_at = ? WHERE id = ?", [name, at, userId])
        try exec("DELETE FROM app_data WHERE user_id = ?", [userId])
        try exec("DELETE FROM installed_apps WHERE user_id = ?", [userId])
    }

    func deactivate(userId: String, at: Int) throws -> Bool {
        try exec("UPDATE users SET deactivated_at = ?, recovery_hash = NULL WHERE id = ? AND deactivated_at IS NULL",
                 [at, userId])
        guard db.changesCount > 0 else { return false }
        try exec("DELETE FROM devices WHERE user_id = ?", [userId])
        try exec("DELETE FROM device_links WHERE user_id = ?", [userId])
        // A deactivated member's invites let them (or anyone they gave one) back in.
        try exec("UPDATE invites SET revoked_at = ? WHERE created_by = ? AND revoked_at IS NULL", [at, userId])
        return true
    }

    func pruneInvites(before: Int) throws -> Int {
        // used up: counted by its creation, which it cannot be used before
        try exec("""
            DELETE FROM invites WHERE revoked_at < ?1 OR expires_at < ?1
                OR (max_uses IS NOT NULL AND uses >= max_uses AND created_at < ?1)
            """, [before])
        return db.changesCount
    }

    func listedInvites(conversationId: String?, at: Int, limit: Int) throws -> [ListedInvite] {
        try rows(ListedInvitesSQL.query(oneConversation: conversationId != nil) { "?\($0)" },
                 conversationId.map { [at, limit, $0] } ?? [at, limit]).map {
            ListedInvite(invite: Invite(id: $0[0], conversationId: $0[1], createdBy: $0[2], createdAt: $0[3], expiresAt: $0[4],
                                        maxUses: $0[5], uses: $0[6], revokedAt: $0[7]),
                         conversationTitle: $0[8], makerName: $0[9])
        }
    }

    func messagesShowing(image hash: String) throws -> [(conversationId: String, seq: Int)] {
        try rows("SELECT conversation_id, seq FROM message_blobs WHERE hash = ?", [hash]).map { ($0[0], $0[1]) }
    }

    func pendingAdminCommands(limit: Int) throws -> [(id: Int, request: [UInt8])] {
        try rows("SELECT id, request FROM admin_commands WHERE done_at IS NULL ORDER BY id LIMIT ?", [limit])
            .map { ($0[0], [UInt8]($0[1] as Data)) }
    }

    func answerAdminCommand(id: Int, reply: [UInt8], at: Int) throws {
        try exec("UPDATE admin_commands SET reply = ?, done_at = ? WHERE id = ?", [Data(reply), at, id])
        // Answers are read within seconds; an hour later nobody waits for them.
        try exec("DELETE FROM admin_commands WHERE done_at < ?", [at - 3_600_000])
    }
}
