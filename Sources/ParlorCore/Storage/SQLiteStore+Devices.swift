import Foundation
import GRDB

/// Devices, device links and recovery keys: every secret is stored as its SHA-256.
extension SQLiteTransaction {
    func userCount() throws -> Int {
        try row("SELECT count(*) FROM users", []).map { $0[0] } ?? 0
    }

    private static func device(_ r: Row) -> Device {
        Device(id: r[0], userId: r[1], name: r[2], createdAt: r[3], lastSeenAt: r[4])
    }

    func device(tokenHash: [UInt8]) throws -> (device: Device, user: User)? {
        try row("""
            SELECT d.id, d.user_id, d.name, d.created_at, d.last_seen_at, u.name, u.admin
            FROM devices d JOIN users u ON u.id = d.user_id
            WHERE d.token_hash = ? AND u.deactivated_at IS NULL
            """, [Data(tokenHash)]).map { (Self.device($0), User(id: $0[1], name: $0[5], admin: $0[6])) }
    }

    func user(recoveryHash: [UInt8]) throws -> User? {
        try row("SELECT id, name, admin FROM users WHERE recovery_hash = ? AND deactivated_at IS NULL",
                [Data(recoveryHash)]).map { User(id: $0[0], name: $0[1], admin: $0[2]) }
    }

    func setRecoveryHash(userId: String, _ hash: [UInt8]) throws {
        try exec("UPDATE users SET recovery_hash = ? WHERE id = ?", [Data(hash), userId])
    }

    func createDevice(_ d: Device, tokenHash: [UInt8]) throws {
        try exec("""
            INSERT INTO devices (id, user_id, name, token_hash, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?, ?)
            """, [d.id, d.userId, d.name, Data(tokenHash), d.createdAt, d.lastSeenAt])
    }

    func devices(of userId: String) throws -> [Device] {
        try rows("""
            SELECT id, user_id, name, created_at, last_seen_at FROM devices WHERE user_id = ? ORDER BY created_at, id
            """, [userId]).map(Self.device)
    }

    func activeDevices(among ids: [String]) throws -> Set<String> {
        let list = String(decoding: try JSONSerialization.data(withJSONObject: ids), as: UTF8.self)
        return Set(try rows("""
            SELECT d.id FROM devices d JOIN users u ON u.id = d.user_id
            WHERE u.deactivated_at IS NULL AND d.id IN (SELECT value FROM json_each(?))
            """, [list]).map { $0[0] })
    }

    func touchDevice(id: String, at: Int) throws {
        try exec("UPDATE devices SET last_seen_at = ? WHERE id = ?", [at, id])
    }

    func renameDevice(id: String, userId: String, name: String) throws -> Bool {
        try exec("UPDATE devices SET name = ? WHERE id = ? AND user_id = ?", [name, id, userId])
        return db.changesCount > 0
    }

    func deleteDevices(userId: String, only: String?, except: String?) throws -> [String] {
        let ids = try devices(of: userId).map(\.id).filter { id in (only.map { id == $0 } ?? true) && id != except }
        for id in ids { try exec("DELETE FROM devices WHERE id = ?", [id]) }
        // A link not yet used is a device to come: one made with a stolen token signed
        // in after "sign out everywhere" (an outside review). Links live minutes.
        try exec("DELETE FROM device_links WHERE user_id = ?", [userId])
        return ids
    }

    func createDeviceLink(_ l: DeviceLink, tokenHash: [UInt8], codeHash: [UInt8]) throws {
        // Links live minutes: the dead ones go whenever a new one is made.
        try exec("DELETE FROM device_links WHERE expires_at < ?", [l.createdAt])
        try exec("""
            INSERT INTO device_links (id, user_id, token_hash, code_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)
            """, [l.id, l.userId, Data(tokenHash), Data(codeHash), l.createdAt, l.expiresAt])
    }

    func deviceLink(hash: [UInt8]) throws -> DeviceLink? {
        try row("""
            SELECT id, user_id, created_at, expires_at, used_at FROM device_links WHERE token_hash = ?1 OR code_hash = ?1
            """, [Data(hash)]).map { DeviceLink(id: $0[0], userId: $0[1], createdAt: $0[2], expiresAt: $0[3], usedAt: $0[4]) }
    }

    func useDeviceLink(id: String, at: Int) throws {
        try exec("UPDATE device_links SET used_at = ? WHERE id = ?", [at, id])
    }
}
