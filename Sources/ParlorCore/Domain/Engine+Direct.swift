/// Direct conversations (`conversations.direct`) and blocks (`users.block`/`.unblock`).
///
/// Two people have at most one direct conversation: the store's pair is unique, so two
/// askers at once (on two nodes) get the same one. One may open it only with someone one
/// shares a conversation with now (a stranger cannot reach anyone), whose account is
/// active, and when neither has blocked the other. Every refusal but "yourself" is the
/// same `forbidden` with the same words, so a block is never revealed to the blocked.
///
/// A block is its blocker's: the blocked person can no longer open a direct conversation
/// with them, and sends into their direct conversation are refused both ways (the
/// blocker unblocks to write again). Groups go on delivering: the blocker's client folds
/// the blocked person's messages away. Every connection of the blocker, on every node,
/// is told the whole list (`{"type":"blocked","users":[…]}`), as at sign-in (`blocked`).
extension Engine {
    static let cannotMessage = "you cannot send messages to this person"

    func openDirect(with other: String, id: String?, conn: ConnectionID, userId: String,
                    _ tx: any StoreTransaction, _ out: inout Outbox) throws {
        guard other != userId else {
            throw ParlorError(.invalidField, "a direct conversation is with someone else", field: "userId")
        }
        // made ones count against the limit on creating conversations; opening one does not
        try requireRoom(\.conversations, userId, "conversations created")
        guard try tx.accountStatus(userId: other) == .active, try tx.shareAConversation(userId, other),
              try !tx.isBlocked(blocker: other, blocked: userId), try !tx.isBlocked(blocker: userId, blocked: other) else {
            throw ParlorError(.forbidden, Self.cannotMessage, field: "userId")
        }
        let cid: String
        if let existing = try tx.directConversationId(userId, other) {
            cid = existing
        } else {
            let fresh = Secrets.id(prefix: "c")
            if try tx.claimDirect(userId, other, conversationId: fresh) {
                try limit(\.conversations, userId, "conversations created")
                // no title: each side names it after the other person, as now named
                try tx.createConversation(id: fresh, title: "", by: userId, at: now())
                cid = fresh
            } else {
                // another node made it a moment ago (the insert waited for its commit)
                guard let made = try tx.directConversationId(userId, other) else {
                    throw ParlorError(.internalError, "lost a direct conversation")
                }
                cid = made
            }
        }
        // either may have left it: opening it again brings both back
        var added: [String] = []
        let at = now()
        for person in [userId, other] {
            if try tx.addMember(conversationId: cid, userId: person, at: at) { added.append(person) }
        }
        guard let c = try tx.conversation(id: cid) else { throw ParlorError(.internalError, "lost a conversation") }
        let mine = try own(c, userId, tx)  // with the asker's notification level, as a join answers
        out.result(conn, id) { w in w.key("conversation"); MessageJSON.write(mine, into: &w) }
        for person in added {
            if let user = try tx.user(id: person) {
                out.actions.append(.broadcastInSmallRoom(conversationId: cid, memberEvent(
                    cid, Member(userId: user.id, name: user.name), change: "joined", count: c.memberCount)))
            }
            out.actions.append(.toUser(userId: person, conversationEvent(c)))
        }
    }

    /// The pair of a direct conversation, remembered (it never changes); nil for a group.
    func directPair(_ cid: String, _ tx: any StoreTransaction) throws -> [String]? {
        if let known = cache.directPairs[cid] { return known.isEmpty ? nil : known }
        let pair = try tx.directPair(conversationId: cid)
        cache.directPairs[cid] = pair ?? []
        return pair
    }

    /// A send, an invite or a moderation in a direct conversation: refused as this says.
    func requireNotBlocked(_ cid: String, _ userId: String, _ tx: any StoreTransaction) throws {
        guard let pair = try directPair(cid, tx), let other = pair.first(where: { $0 != userId }) else { return }
        if try tx.isBlocked(blocker: userId, blocked: other) {
            throw ParlorError(.forbidden, "you blocked this person: unblock them to write to them")
        }
        if try tx.isBlocked(blocker: other, blocked: userId) {
            throw ParlorError(.forbidden, Self.cannotMessage)
        }
    }

    func requireGroup(_ cid: String, _ what: String, _ tx: any StoreTransaction) throws {
        if try directPair(cid, tx) != nil {
            throw ParlorError(.forbidden, "a direct conversation cannot be \(what)", field: "conversationId")
        }
    }

    func setBlocked(_ other: String, _ blocked: Bool, id: String?, conn: ConnectionID, userId: String,
                    _ tx: any StoreTransaction, _ out: inout Outbox) throws {
        try limit(\.blocks, userId, "blocks")
        guard other != userId else { throw ParlorError(.invalidField, "you cannot block yourself", field: "userId") }
        let changed: Bool
        if blocked {
            guard try tx.accountStatus(userId: other) != nil else {
                throw ParlorError(.notFound, "there is no such user", field: "userId")
            }
            guard try tx.isBlocked(blocker: userId, blocked: other) || tx.blockCount(blocker: userId) < Limits.blocksPerUser else {
                throw ParlorError(.tooManyBlocks, "you have blocked \(Limits.blocksPerUser) people; unblock some first")
            }
            changed = try tx.block(blocker: userId, blocked: other, at: now())
        } else {
            changed = try tx.unblock(blocker: userId, blocked: other)
        }
        out.result(conn, id) { _ in }
        if changed { out.actions.append(.toUser(userId: userId, try blockedEvent(userId, tx))) }
    }

    /// The whole list (at most `Limits.blocksPerUser`): a device that missed one change
    /// is right again with the next.
    func blockedEvent(_ userId: String, _ tx: any StoreTransaction) throws -> Payload {
        let list = try tx.blocked(by: userId)
        return Payload { w in
            w.field("type", "blocked")
            w.key("users")
            Self.write(list, into: &w)
        }
    }

    static func write(_ list: [Member], into w: inout JSONWriter) {
        w.beginArray()
        for m in list { MessageJSON.write(m, into: &w) }
        w.endArray()
    }
}

extension Limits {
    /// People one person may have blocked at once (each is a row, and the whole list
    /// goes to every device of theirs when it changes).
    public static let blocksPerUser = 1000
}
