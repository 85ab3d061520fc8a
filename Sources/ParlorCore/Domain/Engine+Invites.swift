/// Invite codes: made by members, limited in time and optionally in uses, revocable.
/// The code is shown once; the server keeps its hash and an id to list and revoke it by.
extension Engine {
    /// A new invite to a conversation, or (nil) a registration link.
    func newInvite(_ cid: String?, _ userId: String, maxUses: Int?, expiresInSeconds: Int?,
                   _ tx: any StoreTransaction) throws -> (code: String, invite: Invite) {
        let code = Secrets.base64url(Secrets.randomBytes(16))
        let at = now()
        let seconds = min(expiresInSeconds ?? settings.inviteSeconds, settings.inviteSeconds)
        let invite = Invite(id: Secrets.id(prefix: "i"), conversationId: cid, createdBy: userId, createdAt: at,
                            expiresAt: at + seconds * 1000, maxUses: maxUses)
        try tx.createInvite(invite, codeHash: Secrets.tokenHash(code))
        return (code, invite)
    }

    /// The invite a code stands for, if it may still be used to join (a member of its
    /// conversation may always use it: joining again changes nothing).
    func usableInvite(_ code: String, member userId: String? = nil,
                      _ tx: any StoreTransaction) throws -> (conversationId: String, inviteId: String) {
        guard let i = try tx.invite(codeHash: Secrets.tokenHash(code)), let cid = i.conversationId else {
            throw ParlorError(.invalidInvite, "this invite code is not valid")
        }
        if let userId, try tx.isMember(conversationId: cid, userId: userId) { return (cid, i.id) }
        guard i.isUsable(at: now()) else {
            throw ParlorError(.invalidInvite, i.revokedAt != nil ? "this invite was revoked"
                              : now() >= i.expiresAt ? "this invite has expired" : "this invite has been used up")
        }
        guard try makerStillInvites(i, tx) else {
            throw ParlorError(.invalidInvite, "whoever made this invite is no longer in the conversation")
        }
        // Removed by a moderator: the invites shared before do not let them back (they
        // rejoined at once with the group's link, an admin's review); one a moderator
        // made since does.
        if let userId, let removed = try tx.removedAt(conversationId: cid, userId: userId),
           try i.createdAt <= removed || !isModerator(cid, i.createdBy, tx) {
            throw ParlorError(.forbidden, "you were removed from this conversation: only a new invite from its creator or an admin lets you back")
        }
        return (cid, i.id)
    }

    /// An invite stands for its maker: a conversation's while they are a member of it, a
    /// registration link while they are an admin. A member removed let themselves back in
    /// with an invite they had made (a removed creator was the creator again), and a
    /// demoted admin's year-long link kept making accounts on a closed server (an outside
    /// review).
    ///
    /// A registration link made at the server's shell (`parlor admin registration-link`)
    /// stands for whoever runs the server: it is refused only when revoked or used up.
    /// (It was checked as an admin account named "admin", which none is: no such link
    /// ever worked.)
    func makerStillInvites(_ i: Invite, _ tx: any StoreTransaction) throws -> Bool {
        if let cid = i.conversationId { return try tx.isMember(conversationId: cid, userId: i.createdBy) }
        return try i.createdBy == Self.shellMaker || tx.isAdmin(userId: i.createdBy)
    }

    /// The maker recorded for a registration link made at the server's shell.
    static let shellMaker = "admin"

    /// The conversation's creator and admins see every open invite; other members their own.
    func listInvites(_ cid: String, userId: String, id: String?, conn: ConnectionID,
                     _ tx: any StoreTransaction, _ out: inout Outbox) throws {
        try requireMember(cid, userId, tx)
        let all = try isModerator(cid, userId, tx)
        let list = try tx.invites(conversationId: cid, createdBy: all ? nil : userId, at: now(), limit: Limits.listedInvites)
            .filter { try makerStillInvites($0, tx) }  // one whose maker left no longer works
        out.result(conn, id) { w in
            w.key("invites")
            w.beginArray()
            for i in list.prefix(Limits.listedInvites) { MessageJSON.write(i, into: &w) }
            w.endArray()
        }
    }

    /// By whoever made it, the conversation's creator, or an admin. Anyone else is told
    /// there is no such invite, so ids cannot be probed.
    func revokeInvite(_ inviteId: String, userId: String, _ tx: any StoreTransaction) throws {
        let notFound = ParlorError(.notFound, "there is no such invite", field: "inviteId")
        guard let i = try tx.invite(id: inviteId) else { throw notFound }
        let allowed: Bool
        if try i.createdBy == userId || tx.isAdmin(userId: userId) {
            allowed = true
        } else if let cid = i.conversationId {
            let creator = try tx.conversation(id: cid)?.createdBy
            allowed = try creator == userId && tx.isMember(conversationId: cid, userId: userId)
        } else {
            allowed = false
        }
        guard allowed else { throw notFound }
        try tx.revokeInvite(id: inviteId, at: now())
    }
}

extension MessageJSON {
    static func write(_ i: Invite, into w: inout JSONWriter) {
        w.beginObject()
        fields(of: i, into: &w)
        w.endObject()
    }

    /// An invite with what an admin knows it by: the conversation's title, the maker's
    /// name (each absent where there is none).
    static func write(_ l: ListedInvite, into w: inout JSONWriter) {
        w.beginObject()
        fields(of: l.invite, into: &w)
        w.field("conversationTitle", l.conversationTitle)
        w.field("createdByName", l.makerName)
        w.endObject()
    }

    private static func fields(of i: Invite, into w: inout JSONWriter) {
        w.field("id", i.id)
        w.field("conversationId", i.conversationId)
        w.field("createdBy", i.createdBy)
        w.field("createdAt", i.createdAt)
        w.field("expiresAt", i.expiresAt)
        w.field("maxUses", i.maxUses)
        w.field("uses", i.uses)
        w.field("revoked", i.revokedAt != nil)
    }
}
