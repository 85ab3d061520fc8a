/// A person deletes their own account (or an admin does, for a person who asked to be
/// removed). It leaves every conversation, and keeps nothing of them but its id and a
/// stand-in name, which the messages they sent are shown with: their devices, recovery
/// key, links, invites, admin right, apps and apps' storage go, and it can never sign
/// in again (nor be reactivated). The messages stay, as a departed member's do: each
/// can be deleted before, as any message.
extension Engine {
    static let deletedAccountName = "Deleted account"

    func deleteAccount(_ userId: String, confirm: String, _ tx: any StoreTransaction, _ out: inout Outbox) throws {
        guard let user = try tx.user(id: userId) else { throw ParlorError(.internalError, "lost a user") }
        guard confirm == user.name else {
            throw ParlorError(.invalidField, "type the account's name to confirm", field: "confirm")
        }
        try eraseAccount(user, tx, &out)
        log.notice("account deleted by its person", metadata: ["user": .string(userId)])
    }

    /// What deleting an account does, whoever asks (its person, or an admin for a person
    /// who asked to be removed): the caller says who in the log, and signs it out.
    func eraseAccount(_ user: User, _ tx: any StoreTransaction, _ out: inout Outbox) throws {
        let userId = user.id
        if user.admin, try tx.activeAdminCount() <= 1 {
            throw ParlorError(.forbidden, "this is the server's only admin account: make someone else an admin first")
        }
        let conversations = try tx.conversationIds(of: userId)
        try tx.deleteAccount(userId: userId, name: Self.deletedAccountName, at: now())
        try tx.deleteBlocks(by: userId)
        out.deletedText = true
        // the name goes first, so that the others' pages show the stand-in on what was sent
        let renamed = Member(userId: userId, name: Self.deletedAccountName)
        for cid in conversations {
            out.actions.append(.broadcastInSmallRoom(conversationId: cid, memberEvent(cid, renamed, change: "renamed")))
            try removeFromConversation(cid, userId, change: "left", by: userId, tx, &out)
        }
    }
}
