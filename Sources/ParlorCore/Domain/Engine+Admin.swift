import Logging

/// Admin requests: `admin.*` frames from an admin's connection, and the same frames
/// from `parlor admin` (no account: `actor` nil), run in-process when no server holds
/// the data directory, or handed to the running server through `admin_commands`.
extension Engine {
    func handleAdmin(_ a: AdminRequest, actor: String?, _ tx: any StoreTransaction,
                     _ out: inout Outbox) throws -> (inout JSONWriter) -> Void {
        if let actor, !(try tx.isAdmin(userId: actor)) {
            throw ParlorError(.forbidden, "only admins may do this")
        }
        let noUser = ParlorError(.notFound, "there is no such user", field: "userId")
        switch a {
        case .listUsers(let after, let limit):
            let list = try tx.users(after: after, limit: limit)
            return { w in
                w.key("users")
                w.beginArray()
                for u in list {
                    w.beginObject()
                    w.field("id", u.user.id)
                    w.field("name", u.user.name)
                    w.field("admin", u.user.admin)
                    w.field("createdAt", u.createdAt)
                    w.field("deactivatedAt", u.deactivatedAt)
                    w.field("deletedAt", u.deletedAt)
                    w.field("devices", u.devices)
                    w.endObject()
                }
                w.endArray()
                w.field("next", list.count == limit ? list.last?.user.id : nil)
            }

        case .setAdmin(let userId, let admin):
            // as deleting the last admin's account is refused: the server would be left
            // with nobody who can make registration links or act on anyone
            if !admin, try tx.isAdmin(userId: userId), try tx.activeAdminCount() <= 1 {
                throw ParlorError(.forbidden, "this is the server's only admin account: make someone else an admin first")
            }
            guard try tx.setAdmin(userId: userId, admin) else { throw noUser }
            audit(admin ? "grant admin" : "ungrant admin", actor, ["user": userId])
            return { _ in }

        case .deactivateUser(let userId):
            guard try tx.user(id: userId) != nil else { throw noUser }
            _ = try tx.deactivate(userId: userId, at: now())
            signOut(user: userId, .deactivated, &out)
            audit("deactivate", actor, ["user": userId])
            return { _ in }

        case .deleteUser(let userId):
            // a person who asked to be removed: before this, the only way was to sign in
            // as them (reactivate), and the log then said they did it themselves
            guard let user = try tx.user(id: userId) else { throw noUser }
            try eraseAccount(user, tx, &out)  // again on a deleted one: nothing left to take
            signOut(user: userId, .deleted, &out)
            audit("delete account", actor, ["user": userId])
            return { _ in }

        case .reactivateUser(let userId):
            guard try tx.user(id: userId) != nil else { throw noUser }
            guard try tx.reactivate(userId: userId) else {
                throw ParlorError(.invalidField, "this account is not deactivated, or its person deleted it", field: "userId")
            }
            // its devices and recovery key went with the deactivation: the way back in is
            // a device link, which the admin hands to the person
            let link = try newDeviceLink(for: userId, tx)
            audit("reactivate", actor, ["user": userId])
            return { w in
                w.field("code", link.code)
                w.field("expiresAt", link.expiresAt)
            }

        case .createRegistrationLink(let maxUses, let seconds):
            let link = try newInvite(nil, actor ?? Self.shellMaker, maxUses: maxUses, expiresInSeconds: seconds, tx)
            audit("registration link", actor, ["invite": link.invite.id, "maxUses": maxUses.map { "\($0)" } ?? "any"])
            return { w in
                w.field("invite", link.code)
                w.key("inviteInfo"); MessageJSON.write(link.invite, into: &w)
            }

        case .listInvites(let cid):
            // only those that still let someone in: one whose maker left no longer does
            // (an admin's review found them listed as working)
            let list = try tx.listedInvites(conversationId: cid, at: now(), limit: Limits.listedInvites)
                .filter { try makerStillInvites($0.invite, tx) }
            return { w in
                w.key("invites")
                w.beginArray()
                for i in list.prefix(Limits.listedInvites) { MessageJSON.write(i, into: &w) }
                w.endArray()
            }

        case .revokeInvite(let inviteId):
            guard try tx.invite(id: inviteId) != nil else {
                throw ParlorError(.notFound, "there is no such invite", field: "inviteId")
            }
            try tx.revokeInvite(id: inviteId, at: now())
            audit("revoke invite", actor, ["invite": inviteId])
            return { _ in }

        case .deleteMessage(let cid, let seq):
            try deleteMessage(cid, seq, by: actor, tx, &out)
            audit("delete message", actor, ["conversation": cid, "seq": "\(seq)"])
            return { _ in }

        case .deleteImage(let hash):
            let showing = try tx.messagesShowing(image: hash)
            guard !showing.isEmpty || blobs.find(hash) != nil else {
                throw ParlorError(.notFound, "there is no such image", field: "hash")
            }
            for m in showing { try deleteMessage(m.conversationId, m.seq, by: actor, tx, &out) }
            try forgetImages([hash], tx, &out)
            audit("delete image", actor, ["hash": hash, "messages": "\(showing.count)"])
            return { w in w.field("deletedMessages", showing.count) }

        case .listReports(let after, let limit):
            return try listReports(after: after, limit: limit, tx)

        case .resolveReport(let reportId):
            let closed = try resolveReport(reportId, actor: actor, tx, &out)
            audit("resolve report", actor, ["report": reportId, "reports": "\(closed)"])
            return { _ in }
        }
    }

    /// Who did what as an admin, in the server's log: a community's moderators answer
    /// to it ("by" is a user id, or "shell" for `parlor admin`). Ids only, never text.
    private func audit(_ action: String, _ actor: String?, _ target: [String: String]) {
        var metadata = target.mapValues { Logger.MetadataValue.string($0) }
        metadata["action"] = .string(action)
        metadata["by"] = .string(actor ?? "shell")
        log.notice("admin action", metadata: metadata)
    }

    /// Closes every connection of a user (4003), as for a revoked device, saying why.
    func signOut(user: String, _ why: SignOutReason, _ out: inout Outbox, announce: Bool = true) {
        for (conn, state) in connections where state.userId == user {
            connections[conn]?.signedOut = true
            if announce { signedOutInBatch.append(conn) }
            out.actions.append(.close(conn, code: 4003, reason: why.rawValue))
        }
        if announce && store.sharedWithOtherNodes { out.actions.append(.signedOut(device: nil, user: user)) }
    }

    /// One `parlor admin` frame, answered as a connection would be (`result`/`error`).
    func adminReply(_ frame: [UInt8], _ tx: any StoreTransaction, _ out: inout Outbox) throws -> [UInt8] {
        let (id, parsed) = RequestParser.parse(frame)
        let request: AdminRequest
        switch parsed {
        case .success(.admin(let a)): request = a
        case .success: return Replies.error(id, ParlorError(.unknownType, "not an admin request")).json
        case .failure(let e): return Replies.error(id, e).json
        }
        do {
            let body = try tx.isolated { try handleAdmin(request, actor: nil, tx, &out) }
            return Replies.result(id, body).json
        } catch let e as TransactionAborted {
            throw e
        } catch let e as ParlorError {
            if e.code == .internalError { cache = EngineCache() }
            return Replies.error(id, e).json
        } catch {
            cache = EngineCache()
            log.error("admin command failed", metadata: ["cause": "\(Self.describe(error))"])
            return Replies.error(id, ParlorError(.internalError, "the server could not complete this request")).json
        }
    }

    /// `parlor admin` with no server running: the frame runs here, in its own transaction.
    public func runAdminCommand(_ frame: [UInt8]) throws -> [UInt8] {
        var out = Outbox()
        let reply = try store.write { tx in try adminReply(frame, tx, &out) }
        for hash in out.unlinkedImages { blobs.remove(hash) }
        return reply
    }

    /// Answers what `parlor admin` queued for this running server.
    func runQueuedAdminCommands(_ tx: any StoreTransaction, _ out: inout Outbox) throws {
        for (id, request) in try tx.pendingAdminCommands(limit: 16) {
            let reply = try adminReply(request, tx, &out)
            try tx.answerAdminCommand(id: id, reply: reply, at: now())
        }
    }
}
