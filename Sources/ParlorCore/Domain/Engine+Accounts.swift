/// The first frames: create an account, or sign in with a device token, a device link
/// or the recovery key. Each sign-in makes (or finds) one device of the account.
extension Engine {
    func authenticate(_ request: Request, id: String?, conn: ConnectionID, _ tx: any StoreTransaction,
                      _ out: inout Outbox) throws {
        var user: User
        var device: Device
        var token: String?
        var recoveryKey: String?
        var joined: Conversation?
        let address = connections[conn]?.address ?? "?"
        if case .register = request {
            try requireRoom(\.registrations, address, "accounts created from this address")
        } else {
            try requireRoom(\.signInFailures, address, "failed sign-ins from this address")
        }
        switch request {
        case .register(let name, let invite, let deviceName):
            let isFirst = try tx.userCount() == 0
            let admission = try admit(invite: invite, firstAccount: isFirst, tx)
            user = User(id: Secrets.id(prefix: "u"), name: name, admin: isFirst)
            recoveryKey = Self.newRecoveryKey()
            try tx.createUser(user, recoveryHash: Self.recoveryHash(recoveryKey!), at: now())
            (device, token) = try newDevice(user.id, deviceName, tx)
            if let admission {
                try tx.countInviteUse(id: admission.inviteId)
                if let cid = admission.conversationId {
                    _ = try tx.addMember(conversationId: cid, userId: user.id, at: now())
                    joined = try tx.conversation(id: cid).map { try own($0, user.id, tx) }
                    let event = memberEvent(cid, Member(userId: user.id, name: name), change: "joined",
                                            count: joined?.memberCount)
                    out.actions.append(.broadcastInSmallRoom(conversationId: cid, event))
                }
            }
            _ = limiters.registrations.take(address, now: now())
        case .auth(let t):
            guard let found = try tx.device(tokenHash: Secrets.tokenHash(t)) else {
                throw ParlorError(.invalidToken, "this token is not valid")
            }
            (device, user) = found
            // when it was last seen is not worth refusing a sign-in for on a full disk
            if readOnlyRun { _ = try? tx.isolated { try tx.touchDevice(id: device.id, at: now()) } }
            else { try tx.touchDevice(id: device.id, at: now()) }
        case .linkDevice(let code, let deviceName):
            let invalid = ParlorError(.invalidLink, "this link is not valid, has expired or was used")
            let hash = Secrets.tokenHash(code.count == Limits.linkCodeChars + 1 || code.count == Limits.linkCodeChars
                                         ? Secrets.normalizedCode(code) : code)
            guard let link = try tx.deviceLink(hash: hash), link.usedAt == nil, now() < link.expiresAt,
                  let u = try tx.user(id: link.userId) else { throw invalid }
            try tx.useDeviceLink(id: link.id, at: now())
            user = u
            (device, token) = try newDevice(user.id, deviceName, tx)
        case .recover(let key, let deviceName, let revokeOthers):
            guard let u = try tx.user(recoveryHash: Self.recoveryHash(key)) else {
                throw ParlorError(.invalidRecoveryKey, "this recovery key is not valid")
            }
            user = u
            if revokeOthers {
                for d in try tx.deleteDevices(userId: user.id, only: nil, except: nil) { signOut(device: d, &out) }
            }
            (device, token) = try newDevice(user.id, deviceName, tx)
        default:
            return
        }
        var state = connections[conn] ?? ConnectionState()
        state.userId = user.id
        state.deviceId = device.id
        connections[conn] = state
        let installed = try tx.installedApps(of: user.id)
        // an admin's page shows at once how many reports wait (then the `reports` events)
        let openReports = user.admin ? try tx.openReportCount(reporter: nil) : nil
        let blocked = try tx.blocked(by: user.id)
        out.result(conn, id) { w in
            w.key("user"); MessageJSON.write(user, into: &w)
            w.field("token", token)
            w.key("device"); MessageJSON.write(device, current: device.id, into: &w)
            w.field("recoveryKey", recoveryKey)
            w.key("installedApps"); MessageJSON.strings(installed, into: &w)
            if let joined { w.key("conversation"); MessageJSON.write(joined, into: &w) }
            w.field("openReports", openReports)
            w.key("blocked"); Self.write(blocked, into: &w)
        }
        out.actions.append(.authenticated(conn, userId: user.id))
    }

    /// Whether `--registration` lets this account be made, and with which invite
    /// (a conversation's, or a registration link: `conversationId` nil).
    private func admit(invite: String?, firstAccount: Bool,
                       _ tx: any StoreTransaction) throws -> (inviteId: String, conversationId: String?)? {
        guard let invite else {
            // The first account of an empty server is its admin: nobody could invite them.
            guard settings.registration == .open || firstAccount else {
                throw ParlorError(.registrationClosed, settings.registration == .closed
                                  ? "this server creates accounts only with a registration link from an admin"
                                  : "this server creates accounts only with an invite", field: "invite")
            }
            return nil
        }
        guard let i = try tx.invite(codeHash: Secrets.tokenHash(invite)), i.isUsable(at: now()) else {
            throw ParlorError(.invalidInvite, "this invite is not valid, has expired or was used up", field: "invite")
        }
        if i.conversationId != nil && settings.registration == .closed {
            throw ParlorError(.registrationClosed, "this server creates accounts only with a registration link from an admin",
                              field: "invite")
        }
        guard try makerStillInvites(i, tx) else {
            throw ParlorError(.invalidInvite, "whoever made this invite can no longer invite anyone", field: "invite")
        }
        return (i.id, i.conversationId)
    }

    /// A new device with a new token, within the account's device limit.
    func newDevice(_ userId: String, _ name: String?, _ tx: any StoreTransaction) throws -> (Device, String) {
        guard try tx.devices(of: userId).count < Limits.devicesPerUser else {
            throw ParlorError(.tooManyDevices, "this account has \(Limits.devicesPerUser) devices; revoke one first")
        }
        let at = now()
        let device = Device(id: Secrets.id(prefix: "d"), userId: userId, name: name ?? "Browser", createdAt: at, lastSeenAt: at)
        let token = Secrets.token()
        try tx.createDevice(device, tokenHash: Secrets.tokenHash(token))
        return (device, token)
    }

    /// Closes the connections signed in with a device that is gone (4003); until they
    /// are closed they may do nothing.
    func signOut(device: String, _ out: inout Outbox, announce: Bool = true) {
        for (conn, state) in connections where state.deviceId == device {
            connections[conn]?.signedOut = true
            if announce { signedOutInBatch.append(conn) }
            out.actions.append(.close(conn, code: 4003, reason: SignOutReason.device.rawValue))
        }
        // Other nodes close theirs too.
        if announce && store.sharedWithOtherNodes { out.actions.append(.signedOut(device: device, user: nil)) }
    }

    static func newRecoveryKey() -> String {
        let raw = Array(Secrets.typeableCode(Limits.recoveryKeyChars))
        return stride(from: 0, to: raw.count, by: 4).map { String(raw[$0..<min($0 + 4, raw.count)]) }.joined(separator: "-")
    }

    static func recoveryHash(_ key: String) -> [UInt8] { Secrets.tokenHash(Secrets.normalizedCode(key)) }
}
