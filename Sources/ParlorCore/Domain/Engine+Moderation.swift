/// Leaving, removing members, renaming, deleting messages. A conversation's creator
/// moderates it; the server's admins may moderate every conversation.
extension Engine {
    func isModerator(_ cid: String, _ userId: String, _ tx: any StoreTransaction) throws -> Bool {
        try tx.isAdmin(userId: userId) || tx.conversation(id: cid)?.createdBy == userId
    }

    /// A member who created the conversation, or an admin (member or not).
    func requireModerator(_ cid: String, _ userId: String, _ tx: any StoreTransaction) throws {
        if try tx.isAdmin(userId: userId) {
            guard try tx.lastSeq(conversationId: cid) != nil else { throw ParlorError.notMember }
            return
        }
        try requireMember(cid, userId, tx)
        guard try tx.conversation(id: cid)?.createdBy == userId else {
            throw ParlorError(.forbidden, "only the conversation's creator or an admin may do this")
        }
    }

    /// Takes a member out: their connections stop receiving the conversation at once
    /// (a replay in progress stops too), the others see a `member` event, and every
    /// connection of the person who left learns it (their other tabs drop the room).
    func removeFromConversation(_ cid: String, _ userId: String, change: String, by: String,
                                _ tx: any StoreTransaction, _ out: inout Outbox) throws {
        guard try tx.removeMember(conversationId: cid, userId: userId, removedAt: change == "removed" ? now() : nil) else { return }
        cache.members.remove(MemberKey(conversation: cid, user: userId))
        for (conn, state) in connections where state.userId == userId {
            endReplay(conn, cid)
            out.actions.append(.unsubscribe(conn, conversationId: cid))
        }
        // before the member event, which the bus carries after it: a tab of theirs on
        // another node kept the conversation coming, the event included (a cluster review)
        if store.sharedWithOtherNodes { out.actions.append(.left(userId: userId, conversationId: cid)) }
        let name = try tx.user(id: userId)?.name ?? ""
        let count = try tx.conversation(id: cid)?.memberCount ?? 0
        let event = memberEvent(cid, Member(userId: userId, name: name), change: change, count: count,
                                by: change == "removed" ? by : nil)
        out.actions.append(.broadcastInSmallRoom(conversationId: cid, event))
        out.actions.append(.toUser(userId: userId, event))
    }

    /// The sender or an admin deletes a message: its body becomes a tombstone for
    /// everyone, and a `deletion` record takes the next seq, so live subscribers and
    /// clients resuming later both learn of it from the one ordered stream. Images no
    /// other message shows are deleted once this commits.
    func deleteMessage(_ cid: String, _ seq: Int, by userId: String?, _ tx: any StoreTransaction,
                       _ out: inout Outbox) throws {
        let admin = try userId.map { try tx.isAdmin(userId: $0) } ?? true
        if !admin, let userId { try requireMember(cid, userId, tx) }
        let notFound = ParlorError(.notFound, "there is no message \(seq) to delete", field: "seq")
        guard let m = try tx.message(conversationId: cid, seq: seq) else {
            let exists = try tx.lastSeq(conversationId: cid) != nil
            if exists { throw notFound }
            // a member is told as about any conversation it is not in; an admin, who may
            // act in every conversation, is told the conversation does not exist
            throw admin ? ParlorError(.notFound, "there is no such conversation", field: "conversationId") : ParlorError.notMember
        }
        guard m.deletedAt == nil, !m.isDeletionRecord else { throw notFound }
        guard admin || m.sender == userId else {
            throw ParlorError(.forbidden, "only its sender or an admin may delete a message")
        }
        let at = now()
        try tx.markDeleted(conversationId: cid, seq: seq, at: at)
        try scrubEditRecords(of: m, tx)
        out.deletedText = true
        // A deleted session message's summaryText must not live on in the summary that
        // stands in its bubble's place once the session moves on.
        if let sid = m.sessionId {
            if let parsed = try? JSONParser.parse(m.body), case .string(let appId)? = parsed["appId"] {
                try tx.setSummary(conversationId: cid, seq: seq, summary: try playedSummary(sender: m.sender, appId: appId, tx))
            }
            cache.sessions[IdPair(cid, sid)]?.summary = nil
        }
        let freed = try tx.removeImageRefs(conversationId: cid, seq: seq)
        guard let last = try cache.lastSeq[cid] ?? tx.lastSeq(conversationId: cid) else { throw ParlorError.notMember }
        // Longer than any client's clientId (64), so no send can take it first.
        let record = StoredMessage(
            conversationId: cid, seq: last + 1,
            clientId: "deletion-of-\(cid)-\(seq)-\(Secrets.hex(Secrets.randomBytes(16)))",
            sender: m.sender, createdAt: at,
            body: JSONWriter.object { w in
                w.field("kind", "deletion")
                w.field("deletes", seq)
                w.field("by", userId)
            })
        try tx.insert(record)
        cache.lastSeq[cid] = last + 1
        try forgetImages(freed, tx, &out)
        out.actions.append(.broadcast(conversationId: cid, MessageJSON.event(record, supersedes: nil)))
    }
}

extension Engine {
    /// Images whose files go once the batch commits (no longer served from then).
    func forgetImages(_ hashes: [String], _ tx: any StoreTransaction, _ out: inout Outbox) throws {
        for h in hashes { try tx.forgetBlob(hash: h) }
        for h in hashes { cache.blobs[h] = nil }
        let gone = Set(hashes)
        cache.imageShowers = cache.imageShowers.filter { !gone.contains($0.second) }
        out.unlinkedImages += hashes
    }
}

extension StoredMessage {
    /// The record of a deletion (`{"kind":"deletion","deletes":seq}`): not itself deletable.
    var isDeletionRecord: Bool { body.starts(with: Array(#"{"kind":"deletion""#.utf8)) }
}
