/// A signed-in user's devices: list, rename, revoke (closing their connections at
/// once), links that sign in another device, and a new recovery key.
extension Engine {
    func handleDevices(_ request: Request, id: String?, conn: ConnectionID, userId: String,
                       _ tx: any StoreTransaction, _ out: inout Outbox) throws {
        let current = connections[conn]?.deviceId
        switch request {
        case .listDevices:
            let list = try tx.devices(of: userId)
            out.result(conn, id) { w in
                w.key("devices")
                w.beginArray()
                for d in list { MessageJSON.write(d, current: current, into: &w) }
                w.endArray()
            }

        case .renameDevice(let deviceId, let name):
            try limit(\.changes, userId, "changes")
            guard try tx.renameDevice(id: deviceId, userId: userId, name: name) else {
                throw ParlorError(.notFound, "this account has no such device", field: "deviceId")
            }
            out.result(conn, id) { _ in }

        case .revokeDevice(let deviceId):
            let gone = try tx.deleteDevices(userId: userId, only: deviceId, except: nil)
            guard !gone.isEmpty else { throw ParlorError(.notFound, "this account has no such device", field: "deviceId") }
            out.result(conn, id) { _ in }
            signOut(device: deviceId, &out)

        case .revokeAllDevices(let keepThis):
            let gone = try tx.deleteDevices(userId: userId, only: nil, except: keepThis ? current : nil)
            out.result(conn, id) { w in w.field("revoked", gone.count) }
            for d in gone { signOut(device: d, &out) }

        case .createDeviceLink:
            try limit(\.invites, userId, "links created")
            let link = try newDeviceLink(for: userId, tx)
            out.result(conn, id) { w in
                w.field("token", link.token)
                w.field("code", link.code)
                w.field("expiresAt", link.expiresAt)
            }

        case .createRecoveryKey:
            try limit(\.changes, userId, "changes")
            let key = Self.newRecoveryKey()
            try tx.setRecoveryHash(userId: userId, Self.recoveryHash(key))
            out.result(conn, id) { w in w.field("recoveryKey", key) }
            // The old key is dead: another device that still shows it as unsaved forgets it.
            out.actions.append(.toUser(userId: userId, Payload { w in
                w.field("type", "recovery")
                w.field("deviceId", current)
            }))

        default:
            return
        }
    }

    /// A link that signs a new device in to this account: its token (for a QR code or
    /// an address) and its typeable code, shown as XXXX-XXXX. Only their hashes are kept.
    func newDeviceLink(for userId: String, _ tx: any StoreTransaction) throws
        -> (token: String, code: String, expiresAt: Int) {
        let token = Secrets.token()
        let code = Secrets.typeableCode(Limits.linkCodeChars)
        let at = now()
        let link = DeviceLink(id: Secrets.id(prefix: "l"), userId: userId, createdAt: at,
                              expiresAt: at + settings.deviceLinkSeconds * 1000)
        try tx.createDeviceLink(link, tokenHash: Secrets.tokenHash(token), codeHash: Secrets.tokenHash(code))
        return (token, String(code.prefix(4)) + "-" + String(code.dropFirst(4)), link.expiresAt)
    }
}

extension MessageJSON {
    static func write(_ d: Device, current: String?, into w: inout JSONWriter) {
        w.beginObject()
        w.field("id", d.id)
        w.field("name", d.name)
        w.field("createdAt", d.createdAt)
        w.field("lastSeenAt", d.lastSeenAt)
        w.field("current", d.id == current)
        w.endObject()
    }
}
