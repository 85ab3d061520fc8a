/// The requests of a signed-in connection, except `send` (Engine+Send.swift).
extension Engine {
    func handle(_ request: Request, id: String?, conn: ConnectionID, userId: String,
                _ tx: any StoreTransaction, _ out: inout Outbox) throws {
        switch request {
        case .register, .auth, .linkDevice, .recover:
            return  // handled before sign-in

        case .listDevices, .renameDevice, .revokeDevice, .revokeAllDevices, .createDeviceLink, .createRecoveryKey:
            try handleDevices(request, id: id, conn: conn, userId: userId, tx, &out)

        case .deleteAccount(let confirm):
            try deleteAccount(userId, confirm: confirm, tx, &out)
            out.result(conn, id) { _ in }
            signOut(user: userId, .deleted, &out)

        case .rename(let name):
            try limit(\.changes, userId, "changes")
            try tx.renameUser(id: userId, name: name)
            guard let user = try tx.user(id: userId) else { throw ParlorError(.internalError, "lost a user") }
            out.result(conn, id) { w in w.key("user"); MessageJSON.write(user, into: &w) }
            // Her other devices show her new name, also those in no conversation (a member
            // event reaches only a conversation's subscribers).
            out.actions.append(.toUserExcept(userId: userId, except: conn, Payload { w in
                w.field("type", "user")
                w.key("user"); MessageJSON.write(user, into: &w)
            }))
            for c in try tx.conversationIds(of: userId) {
                out.actions.append(.broadcastInSmallRoom(conversationId: c,
                                                         memberEvent(c, Member(userId: userId, name: name), change: "renamed")))
            }

        case .listConversations:
            let list = try tx.conversations(of: userId)
            out.result(conn, id) { w in
                w.key("conversations")
                w.beginArray()
                for c in list { MessageJSON.write(c, into: &w) }
                w.endArray()
            }

        case .createConversation(let title):
            try limit(\.conversations, userId, "conversations created")
            let cid = Secrets.id(prefix: "c")
            let at = now()
            try tx.createConversation(id: cid, title: title, by: userId, at: at)
            _ = try tx.addMember(conversationId: cid, userId: userId, at: at)
            let invite = try newInvite(cid, userId, maxUses: nil, expiresInSeconds: nil, tx)
            guard let c = try tx.conversation(id: cid).map({ try own($0, userId, tx) }) else {
                throw ParlorError(.internalError, "lost a conversation")
            }
            out.result(conn, id) { w in
                w.key("conversation"); MessageJSON.write(c, into: &w)
                w.field("invite", invite.code)
                w.key("inviteInfo"); MessageJSON.write(invite.invite, into: &w)
            }
            out.actions.append(.toUser(userId: userId, conversationEvent(c)))

        case .createInvite(let cid, let maxUses, let seconds):
            try requireMember(cid, userId, tx)
            try requireGroup(cid, "joined by invite", tx)
            try limit(\.invites, userId, "invites created")
            let cap = Limits.openInvitesPerConversation
            guard try tx.invites(conversationId: cid, createdBy: nil, at: now(), limit: cap).count < cap else {
                throw ParlorError(.tooManyInvites, "this conversation has \(cap) open invites; revoke some first")
            }
            let invite = try newInvite(cid, userId, maxUses: maxUses, expiresInSeconds: seconds, tx)
            out.result(conn, id) { w in
                w.field("invite", invite.code)
                w.key("inviteInfo"); MessageJSON.write(invite.invite, into: &w)
            }

        case .listInvites(let cid):
            try listInvites(cid, userId: userId, id: id, conn: conn, tx, &out)

        case .revokeInvite(let inviteId):
            try revokeInvite(inviteId, userId: userId, tx)
            out.result(conn, id) { _ in }

        case .openDirect(let other):
            try openDirect(with: other, id: id, conn: conn, userId: userId, tx, &out)

        case .block(let other):
            try setBlocked(other, true, id: id, conn: conn, userId: userId, tx, &out)

        case .unblock(let other):
            try setBlocked(other, false, id: id, conn: conn, userId: userId, tx, &out)

        case .join(let invite):
            // Joins, leaves and unsubscribes each tell the room: unbounded, one member's
            // leave/join pairs made 9,000 member events in 2 s (an outside review).
            try limit(\.changes, userId, "changes")
            let (cid, inviteId) = try usableInvite(invite, member: userId, tx)
            let added = try tx.addMember(conversationId: cid, userId: userId, at: now())
            guard let c = try tx.conversation(id: cid).map({ try own($0, userId, tx) }) else {
                throw ParlorError(.internalError, "lost a conversation")
            }
            out.result(conn, id) { w in w.key("conversation"); MessageJSON.write(c, into: &w) }
            if added, let user = try tx.user(id: userId) {
                try tx.countInviteUse(id: inviteId)
                let me = Member(userId: user.id, name: user.name)
                out.actions.append(.broadcastInSmallRoom(conversationId: cid,
                                                         memberEvent(cid, me, change: "joined", count: c.memberCount)))
                out.actions.append(.toUser(userId: userId, conversationEvent(c)))
            }

        case .peekInvite(let invite):
            // Only what the invite's holder needs to decide: no member names, no messages.
            guard let c = try tx.conversation(id: try usableInvite(invite, tx).conversationId) else {
                throw ParlorError(.invalidInvite, "this invite code is not valid")
            }
            out.result(conn, id) { w in
                w.key("conversation")
                w.beginObject()
                w.field("id", c.id)
                w.field("title", c.title)
                w.field("memberCount", c.memberCount)
                w.endObject()
            }

        case .leaveConversation(let cid):
            try limit(\.changes, userId, "changes")
            try requireMember(cid, userId, tx)
            try removeFromConversation(cid, userId, change: "left", by: userId, tx, &out)
            out.result(conn, id) { _ in }

        case .removeMember(let cid, let target):
            try requireModerator(cid, userId, tx)
            try requireGroup(cid, "taken anyone out of", tx)
            guard try tx.isMember(conversationId: cid, userId: target) else {
                throw ParlorError(.notFound, "this user is not a member of the conversation", field: "userId")
            }
            try removeFromConversation(cid, target, change: "removed", by: userId, tx, &out)
            out.result(conn, id) { _ in }

        case .renameConversation(let cid, let title):
            try requireModerator(cid, userId, tx)
            try requireGroup(cid, "renamed", tx)
            try limit(\.changes, userId, "changes")
            try tx.renameConversation(id: cid, title: title)
            guard let c = try tx.conversation(id: cid) else { throw ParlorError.notMember }
            out.result(conn, id) { w in w.key("conversation"); MessageJSON.write(c, into: &w) }
            out.actions.append(.broadcast(conversationId: cid, conversationEvent(c)))

        case .admin(let a):
            let body = try handleAdmin(a, actor: userId, tx, &out)
            out.result(conn, id, body)

        case .deleteMessage(let cid, let seq):
            try deleteMessage(cid, seq, by: userId, tx, &out)
            out.result(conn, id) { _ in }

        case .editMessage(let cid, let seq, let text, let mentions):
            try editMessage(cid, seq, text: text, mentions: mentions, id: id, conn: conn, userId: userId, tx, &out)

        case .reportMessage(let cid, let seq, let reason):
            try reportMessage(cid, seq, reason: reason, id: id, conn: conn, userId: userId, tx, &out)

        case .subscribe(let cid, let afterSeq, let afterClientId):
            try requireMember(cid, userId, tx)
            guard let c = try tx.conversation(id: cid).map({ try own($0, userId, tx) }) else { throw ParlorError.notMember }
            var resync = afterSeq > c.lastSeq || c.lastSeq - afterSeq > Limits.replayMessages
            // The client's message at afterSeq is not this server's: its history went on
            // from an earlier point (a restored backup) and others' new messages took the
            // same seqs. Replaying after afterSeq would skip some and leave its own.
            if !resync, afterSeq > 0, let afterClientId,
               try tx.message(conversationId: cid, seq: afterSeq)?.clientId != afterClientId {
                resync = true
            }
            out.result(conn, id) { w in
                w.key("conversation"); MessageJSON.write(c, into: &w)
                w.field("lastSeq", c.lastSeq)
                w.field("resync", resync)
            }
            var state = connections[conn] ?? ConnectionState(userId: userId)
            let generation = state.nextReplay
            state.nextReplay += 1
            state.replays[cid] = generation
            connections[conn] = state
            if !resync && afterSeq < c.lastSeq {
                try replayPiece(conn, cid, afterSeq: afterSeq, lastSeq: c.lastSeq, generation: generation, userId, tx, &out)
            } else {
                endReplay(conn, cid)
                try subscribeLive(conn, cid, userId: userId, caughtUpTo: c.lastSeq, tx, &out)
            }

        case .ping:
            out.result(conn, id) { _ in }

        case .unsubscribe(let cid):
            // and each unsubscribe and subscribe again, a presence event to every member
            try limit(\.changes, userId, "changes")
            out.actions.append(.unsubscribe(conn, conversationId: cid))
            out.result(conn, id) { _ in }

        case .send(let cid, let clientId, let content):
            try send(conversationId: cid, clientId: clientId, content: content, id: id, conn: conn, userId: userId, tx, &out)

        case .history(let cid, let beforeSeq, let afterSeq, let limit):
            try requireMember(cid, userId, tx)
            try requireRoom(\.historyBytes, userId, "history read")
            var kept: [[UInt8]]
            let hasMore: Bool
            if let afterSeq {
                // Newer messages, for a reader who came back down to where the transcript
                // stopped holding what arrived: the oldest of them first, up to the budget.
                let page = try tx.messages(conversationId: cid, afterSeq: afterSeq, limit: limit + 1)
                kept = Self.encodedWithinBudget(page.prefix(limit))
                hasMore = page.count > kept.count
            } else {
                // The newest messages of the page first, up to a byte budget: a page of long
                // messages must still fit what the connection may queue.
                let page = try tx.messages(conversationId: cid, beforeSeq: beforeSeq ?? Int.max, limit: limit)
                kept = Self.encodedWithinBudget(page.reversed())
                hasMore = !page.isEmpty && page[page.count - kept.count].seq > 1
                kept.reverse()
            }
            out.result(conn, id) { w in Self.writePage(kept, hasMore: hasMore, into: &w) }
            limiters.historyBytes.charge(userId, cost: Double(kept.reduce(0) { $0 + $1.count }), now: now())

        case .searchMessages(let cid, let query, let beforeSeq):
            try searchMessages(cid, query: query, beforeSeq: beforeSeq, id: id, conn: conn, userId: userId, tx, &out)

        case .installApp(let appId):
            guard apps.name(of: appId) != nil else { throw ParlorError(.unknownApp, "there is no such app on this server") }
            try tx.install(appId: appId, for: userId)
            let list = try tx.installedApps(of: userId)
            out.result(conn, id) { w in w.key("installedApps"); MessageJSON.strings(list, into: &w) }
            out.actions.append(.toUser(userId: userId, appsEvent(list)))

        case .uninstallApp(let appId):
            // An installed app can always be removed, even once it is gone from the server.
            guard try tx.installedApps(of: userId).contains(appId) || apps.name(of: appId) != nil else {
                throw ParlorError(.unknownApp, "there is no such app on this server")
            }
            try tx.uninstall(appId: appId, for: userId)
            let list = try tx.installedApps(of: userId)
            out.result(conn, id) { w in w.key("installedApps"); MessageJSON.strings(list, into: &w) }
            out.actions.append(.toUser(userId: userId, appsEvent(list)))

        case .members(let cid, let userIds):
            try requireMember(cid, userId, tx)
            let found = try tx.members(conversationId: cid, userIds: userIds)
            let rest = userIds.filter { uid in !found.contains { $0.userId == uid } }
            let former = rest.isEmpty ? [] : try tx.formerMembers(conversationId: cid, userIds: rest)
            out.result(conn, id) { w in
                w.key("members")
                w.beginArray()
                for m in found { MessageJSON.write(m, into: &w) }
                w.endArray()
                if !former.isEmpty {
                    w.key("formerMembers")
                    w.beginArray()
                    for m in former { MessageJSON.write(m, into: &w) }
                    w.endArray()
                }
            }

        case .getAppData(let appId):
            try requireApp(appId)
            // reads count against the same bytes a second as history pages
            try requireRoom(\.historyBytes, userId, "storage read")
            let entries = try tx.appData(userId: userId, appId: appId)
            limiters.historyBytes.charge(userId, cost: Double(entries.reduce(0) { $0 + $1.key.utf8.count + $1.value.count }),
                                         now: now())
            out.result(conn, id) { w in
                w.key("data")
                w.beginObject()
                for e in entries { w.key(text: e.key); w.raw(e.value) }
                w.endObject()
            }

        case .setAppData(let appId, let key, let value):
            try limit(\.appDataWrites, userId, "app storage writes")
            try setAppData(appId, key, value, userId, tx)
            out.result(conn, id) { _ in }
            // Every other page of this user (other tabs, devices, nodes) holds the app's
            // storage: it follows. The page that wrote has it already.
            out.actions.append(.toUserExcept(userId: userId, except: conn, Payload { w in
                w.field("type", "appdata")
                w.field("appId", appId)
                w.field("key", key)
                w.key("value")
                if let value { w.value(value) } else { w.null() }
            }))

        case .playing(let cid, let sid, let on):
            try playing(cid, sid, on, id: id, conn: conn, userId: userId, tx, &out)

        case .typing(let cid, let on):
            try typing(cid, on, id: id, conn: conn, userId: userId, tx, &out)

        case .setNotify(let cid, let level):
            try setNotify(cid, level, id: id, conn: conn, userId: userId, tx, &out)

        case .markRead(let cid, let seq):
            try limit(\.readMarks, userId, "read marks")
            try requireMember(cid, userId, tx)
            let mark = try tx.markRead(conversationId: cid, userId: userId, seq: seq)
            out.result(conn, id) { _ in }
            // Her other devices clear the conversation's unread count; nobody else hears.
            if let mark {
                out.actions.append(.toUserExcept(userId: userId, except: conn, Payload { w in
                    w.field("type", "read")
                    w.field("conversationId", cid)
                    w.field("seq", mark)
                }))
            }

        case .participants(let cid, let appId):
            try requireApp(appId)
            try requireMember(cid, userId, tx)
            guard let c = try tx.conversation(id: cid) else { throw ParlorError.notMember }
            var pairs: [(String, String)] = []
            for m in c.members { pairs.append((m.userId, try participantId(m.userId, appId, tx))) }
            let local = try participantId(userId, appId, tx)
            out.result(conn, id) { w in
                w.field("local", local)
                w.key("participants")
                w.beginArray()
                for (u, p) in pairs {
                    w.beginObject(); w.field("userId", u); w.field("participantId", p); w.endObject()
                }
                w.endArray()
            }
        }
    }

    /// Sends the messages after `afterSeq`, up to a byte budget, then either subscribes
    /// the connection (caught up) or asks the service thread to come back for more once
    /// these have been written. Live events wait until the replay has caught up; the
    /// engine orders both, so nothing is missed or sent twice.
    func replayPiece(_ conn: ConnectionID, _ cid: String, afterSeq: Int, lastSeq: Int, generation: Int,
                     _ userId: String, _ tx: any StoreTransaction, _ out: inout Outbox) throws {
        var bytes = 0
        var last = afterSeq
        for m in try tx.messages(conversationId: cid, afterSeq: afterSeq, limit: Limits.replayPieceMessages) {
            let event = MessageJSON.event(m, supersedes: try supersededInfo(m, tx))
            out.actions.append(.send(conn, event))
            bytes += event.json.count
            last = m.seq
            if bytes >= Limits.replayPieceBytes { break }
        }
        if last < replayTarget(cid, lastSeq: lastSeq) {
            out.actions.append(.replayContinues(conn, conversationId: cid, afterSeq: last, generation: generation))
        } else {
            endReplay(conn, cid)
            try subscribeLive(conn, cid, userId: userId, caughtUpTo: last, tx, &out)
        }
    }

    /// A replay is over (caught up, or not needed): its entry goes, and with the last
    /// one the table, so a connection keeps none while no replay runs. A piece of it
    /// still on its way finds no entry and is dropped, as one of a replaced replay is.
    func endReplay(_ conn: ConnectionID, _ cid: String) {
        guard connections[conn]?.replays[cid] != nil else { return }
        connections[conn]!.replays[cid] = nil
        if connections[conn]!.replays.isEmpty { connections[conn]!.replays = [:] }
    }

    /// The next piece of a replay, unless a newer subscribe replaced it or the user left.
    func continueReplay(_ conn: ConnectionID, _ cid: String, afterSeq: Int, generation: Int,
                        _ tx: any StoreTransaction, _ out: inout Outbox) throws {
        guard let state = connections[conn], let userId = state.userId, state.replays[cid] == generation else { return }
        do {
            try tx.isolated {
                try requireMember(cid, userId, tx)
                let lastSeq = try tx.lastSeq(conversationId: cid) ?? 0
                try replayPiece(conn, cid, afterSeq: afterSeq, lastSeq: lastSeq, generation: generation, userId, tx, &out)
            }
        } catch let e as TransactionAborted {
            throw e
        } catch {
            cache = EngineCache()
            log.error("replay failed", metadata: ["cause": "\(Engine.describe(error))"])
            out.actions.append(.close(conn, code: 1011, reason: "the server could not read the history"))
        }
    }

    /// One app's storage for one user: each value at most 16 KiB, all of them 256 KiB.
    private func setAppData(_ appId: String, _ key: String, _ value: JSONValue?, _ userId: String,
                            _ tx: any StoreTransaction) throws {
        try requireApp(appId)
        guard let value else { return try tx.setAppData(userId: userId, appId: appId, key: key, value: nil) }
        var w = JSONWriter()
        w.value(value)
        guard w.bytes.count <= Limits.appDataValueBytes else {
            throw ParlorError(.tooLong, "a stored value is limited to 16 KiB", field: "value")
        }
        // Counted by the database, not read back: each write read the whole store, and
        // 51,000 tiny keys made a write and a read cost 0.1-0.2 s (an outside review).
        let others = try tx.appDataUsage(userId: userId, appId: appId, except: key)
        guard others.keys < Limits.appDataKeys else {
            throw ParlorError(.storageFull, "this app's storage holds at most \(Limits.appDataKeys) keys")
        }
        guard others.bytes + key.utf8.count + w.bytes.count <= Limits.appDataTotalBytes else {
            throw ParlorError(.storageFull, "this app's storage is full (256 KiB)")
        }
        try tx.setAppData(userId: userId, appId: appId, key: key, value: w.bytes)
    }

    /// Ids and storage exist only for apps this server has (docs/PROTOCOL.md: `unknown_app`).
    func requireApp(_ appId: String) throws {
        guard apps.name(of: appId) != nil else { throw ParlorError(.unknownApp, "there is no such app on this server") }
    }

    func requireMember(_ cid: String, _ userId: String, _ tx: any StoreTransaction) throws {
        let key = MemberKey(conversation: cid, user: userId)
        if cache.members.contains(key) { return }
        guard try tx.isMember(conversationId: cid, userId: userId) else { throw ParlorError.notMember }
        cache.members.insert(key)
    }

    /// The (user, app) participant identifier, created on first use and kept for ever.
    func participantId(_ userId: String, _ appId: String, _ tx: any StoreTransaction) throws -> String {
        let key = IdPair(userId, appId)
        if let p = cache.participants[key] { return p }
        if let p = try tx.participantId(userId: userId, appId: appId) {
            cache.participants[key] = p
            return p
        }
        let p = Secrets.uuid()
        try tx.setParticipantId(p, userId: userId, appId: appId)
        return p
    }

    /// The user's installed apps, changed on one of their connections.
    func appsEvent(_ list: [String]) -> Payload {
        Payload { w in
            w.field("type", "apps")
            w.key("installedApps"); MessageJSON.strings(list, into: &w)
        }
    }

    /// Tells a user's other tabs and devices about a conversation they now belong to.
    func conversationEvent(_ c: Conversation) -> Payload {
        Payload { w in
            w.field("type", "conversation")
            w.key("conversation"); MessageJSON.write(c, into: &w)
        }
    }

    /// `change`: joined, renamed, left or removed; `count` the members after it.
    func memberEvent(_ cid: String, _ m: Member, change: String, count: Int? = nil, by: String? = nil) -> Payload {
        Payload { w in
            w.field("type", "member")
            w.field("conversationId", cid)
            w.key("member"); MessageJSON.write(m, into: &w)
            w.field("change", change)
            w.field("memberCount", count)
            w.field("by", by)
        }
    }

    /// For a replayed message that took over a session: its predecessor and the summary
    /// that now stands in its place, so a resuming client collapses the old bubble.
    func supersededInfo(_ m: StoredMessage, _ tx: any StoreTransaction) throws -> (seq: Int, summary: String)? {
        guard let sid = m.sessionId, let v = m.sessionVersion, v > 1,
              let prev = try tx.message(conversationId: m.conversationId, sessionId: sid, version: v - 1)
        else { return nil }
        return (prev.seq, prev.summary ?? "")
    }
}

extension Engine {
    /// Messages as JSON, in the order given, while they fit a history page's byte budget
    /// (the first always does).
    static func encodedWithinBudget<S: Sequence>(_ messages: S) -> [[UInt8]] where S.Element == StoredMessage {
        var kept: [[UInt8]] = []
        var bytes = 0
        for m in messages {
            var w = JSONWriter()
            MessageJSON.write(m, into: &w)
            if !kept.isEmpty && bytes + w.bytes.count > Limits.historyPageBytes { break }
            bytes += w.bytes.count
            kept.append(w.bytes)
        }
        return kept
    }

    /// A page of messages as `history` and `messages.search` answer it; `nextBeforeSeq`
    /// where a search stopped, when it has more.
    static func writePage(_ kept: [[UInt8]], hasMore: Bool, nextBeforeSeq: Int? = nil, into w: inout JSONWriter) {
        w.key("messages")
        w.beginArray()
        for m in kept { w.raw(m) }
        w.endArray()
        w.field("hasMore", hasMore)
        if hasMore, let nextBeforeSeq { w.field("nextBeforeSeq", nextBeforeSeq) }
    }
}
