/// `send`: idempotency, sessions and sequencing. A message is acknowledged only in
/// the actions of a batch, which the service thread performs after the commit.
///
/// `send` runs without a savepoint of its own (`Engine.withoutSavepoint`): every
/// refusal (a `ParlorError`) must be thrown before its first write.
extension Engine {
    func send(conversationId cid: String, clientId: String, content sent: MessageContent, id: String?,
              conn: ConnectionID, userId: String, _ tx: any StoreTransaction, _ out: inout Outbox) throws {
        if !lockTimedOut.isEmpty, lockTimedOut.contains(cid) { throw ParlorError.serverBusy(retryAfterMs: Self.lockedRetryMs) }
        try limit(\.sends, userId, "messages")
        try requireMember(cid, userId, tx)
        try requireNotBlocked(cid, userId, tx)
        // the pictures' sizes go with the message, so a bubble has its shape before they come
        let content = sent.showsSizedImage ? sent.withImageSizes { storedBlob($0)?.size } : sent
        let body = content.bodyJSON
        // A retry of a message we already stored is answered with the original. Looking
        // the clientId up costs an index search on every send, and the insert meets a
        // used clientId anyway; so it is looked up first only when the batch runs again
        // isolated, and otherwise only when a refusal is about to be answered (a retried
        // session update meets its own later version) or the insert finds it used.
        if isolateEveryRequest, try answerRetry(cid, clientId, body, content, id: id, conn: conn, userId: userId, tx, &out) {
            return
        }
        do {
            try store(conversationId: cid, clientId: clientId, content: content, body: body, id: id, conn: conn,
                      userId: userId, tx, &out)
        } catch let e as ParlorError where e.code != .internalError && !isolateEveryRequest {
            if try answerRetry(cid, clientId, body, content, id: id, conn: conn, userId: userId, tx, &out) { return }
            throw e
        }
    }

    /// The original message for a retry (same clientId, content, conversation and base
    /// version), true when answered; a clientId used for anything else is refused. A
    /// message deleted since (its content gone) answers a retry with what it is now: a
    /// send retried after an admin deleted it was refused as `client_id_reused`.
    private func answerRetry(_ cid: String, _ clientId: String, _ body: [UInt8], _ content: MessageContent,
                             id: String?, conn: ConnectionID, userId: String, _ tx: any StoreTransaction,
                             _ out: inout Outbox) throws -> Bool {
        guard let used = try tx.clientIdUse(sender: userId, clientId: clientId) else { return false }
        guard used.conversationId == cid,
              let existing = try tx.message(conversationId: cid, seq: used.seq),
              existing.deletedAt != nil || (existing.wasEdited && content.isText) || (storedAs(existing.body, body, content)
                  && (existing.sessionVersion.map { $0 - 1 } ?? 0) == (content.session?.baseVersion ?? 0)) else {
            throw ParlorError(.clientIdReused, "this clientId was already used for a different message", field: "clientId")
        }
        let bytes = MessageJSON.bytes(existing)
        out.result(conn, id) { w in w.key("message"); w.raw(bytes) }
        return true
    }

    /// Whether a stored body is this content's: as written now, or as a server before
    /// image sizes wrote it (a send retried across the upgrade is the same message).
    private func storedAs(_ stored: [UInt8], _ body: [UInt8], _ content: MessageContent) -> Bool {
        stored == body || (content.showsSizedImage && stored == content.withImageSizes { _ in nil }.bodyJSON)
    }

    private func store(conversationId cid: String, clientId: String, content: MessageContent, body: [UInt8],
                       id: String?, conn: ConnectionID, userId: String, _ tx: any StoreTransaction,
                       _ out: inout Outbox) throws {
        try requireBlobs(content, userId, tx)
        guard let last = try cache.lastSeq[cid] ?? tx.lastSeq(conversationId: cid) else { throw ParlorError.notMember }
        let seq = last + 1

        if case .sticker(let s) = content, let target = s.stuckTo, target.seq > last {
            throw ParlorError(.notFound, "there is no message \(target.seq) to stick this on", field: "message.stuckTo.seq")
        }
        if case .reaction(let to, _) = content, to > last {
            throw ParlorError(.notFound, "there is no message \(to) to react to", field: "message.to")
        }
        if let r = content.replyTo, r > last {
            throw ParlorError(.notFound, "there is no message \(r) to reply to", field: "message.replyTo")
        }
        if case .text(let text, _, let mentions) = content, !mentions.isEmpty {
            try checkMentions(cid, text, mentions, field: "message.mentions", tx)
        }

        var message = StoredMessage(
            conversationId: cid, seq: seq, clientId: clientId, sender: userId, createdAt: now(),
            body: body)

        var supersedes: (seq: Int, summary: String)?
        if let appId = content.appId {
            guard apps.name(of: appId) != nil else {
                throw ParlorError(.unknownApp, "there is no such app on this server", field: "message.appId")
            }
            if let ref = content.session {
                // The line that will stand in this bubble's place once a later move
                // supersedes it, stored with the message: superseding it then writes
                // nothing to the old row (its `supersededBy` is derived when read).
                let summary = try content.summaryText.flatMap { $0.isEmpty ? nil : $0 }
                    ?? playedSummary(sender: userId, appId: appId, tx)
                let (version, previous) = try advanceSession(ref, appId: appId, cid: cid, newSeq: seq,
                                                             summary: summary, tx)
                message.sessionId = ref.id
                message.sessionVersion = version
                message.summary = summary
                if let previous, let s = try previous.summary ?? storedSummary(cid, previous.seq, appId: appId, tx) {
                    supersedes = (previous.seq, s)
                }
            }
            // Only after the session's checks: a send refuses before its first write
            // (it runs without a savepoint), and a new participant id is a write.
            message.senderParticipantId = try participantId(userId, appId, tx)
        }

        guard try tx.insert(message) else {
            // The clientId was used: a retry. A text wrote nothing before this and is
            // answered now; an app message may have moved its session or made its
            // participant id, so the batch runs again, each request isolated.
            if content.appId != nil { throw ClientIdUsed() }
            if try answerRetry(cid, clientId, body, content, id: id, conn: conn, userId: userId, tx, &out) { return }
            throw ParlorError(.internalError, "the clientId was used, then not found")
        }
        try tx.addImageRefs(content.images.map(\.hash), conversationId: cid, seq: seq)
        metrics.pendingMessages += 1
        cache.lastSeq[cid] = seq
        let json = MessageJSON.bytes(message)
        out.result(conn, id) { w in
            w.key("message"); w.raw(json)
            if let s = supersedes {
                w.key("supersedes")
                w.beginObject(); w.field("seq", s.seq); w.field("summary", s.summary); w.endObject()
            }
        }
        out.actions.append(.broadcast(conversationId: cid, MessageJSON.event(conversationId: cid, message: json, supersedes: supersedes)))
    }

    /// A send whose insert met its own clientId after it wrote (see `store`).
    private struct ClientIdUsed: Error {}

    /// Every blob a message refers to must have been uploaded, as what its field holds
    /// (a recording in `audio`, an image elsewhere), and be the sender's to show
    /// (`mayShowImage`); the same answer either way, so a hash tells an outsider nothing.
    private func requireBlobs(_ content: MessageContent, _ userId: String, _ tx: any StoreTransaction) throws {
        for (hash, field) in content.images {
            let audio = field == MessageContent.audioField
            let what = audio ? "no voice recording" : "no image"
            guard storedBlob(hash)?.isAudio == audio else {
                throw ParlorError(.notFound, "\(what) was uploaded with this hash", field: field)
            }
            if cache.imageShowers.contains(IdPair(userId, hash)) { continue }
            guard try tx.mayShowImage(hash: hash, userId: userId) else {
                throw ParlorError(.notFound, "\(what) was uploaded with this hash", field: field)
            }
            cache.imageShowers.insert(IdPair(userId, hash))
        }
    }

    /// A stored blob as the cache knows it, else as its file says (then cached).
    private func storedBlob(_ hash: String) -> StoredBlob? {
        if let known = cache.blobs[hash] { return known }
        guard let (path, type) = blobs.find(hash) else { return nil }
        var found = StoredBlob(isAudio: type.isAudio)
        if case .image(let t) = type { found.size = blobs.imageSize(path: path, type: t) }
        cache.blobs[hash] = found
        return found
    }

    /// Checks the update against the session's version and moves its head; returns the
    /// new version and the message it supersedes. A stale base is a conflict carrying the
    /// current message.
    private func advanceSession(_ ref: SessionRef, appId: String, cid: String, newSeq: Int, summary: String?,
                                _ tx: any StoreTransaction) throws -> (version: Int, previous: (seq: Int, summary: String?)?) {
        let key = IdPair(cid, ref.id)
        guard let head = try cache.sessions[key] ?? tx.session(conversationId: cid, id: ref.id) else {
            guard ref.baseVersion == 0 else {
                throw ParlorError(.notFound, "there is no session with this id to update", field: "message.session.id")
            }
            let first = SessionHead(appId: appId, version: 1, currentSeq: newSeq, summary: summary)
            try tx.setSession(conversationId: cid, id: ref.id, head: first)
            cache.sessions[key] = first
            return (1, nil)
        }
        guard head.appId == appId else {
            throw ParlorError(.sessionAppMismatch, "this session belongs to another app", field: "message.session.id")
        }
        guard head.version == ref.baseVersion else {
            let current = try tx.message(conversationId: cid, seq: head.currentSeq).map(MessageJSON.bytes)
            throw ParlorError(.sessionConflict,
                              "the session is at version \(head.version), not \(ref.baseVersion)",
                              field: "message.session.baseVersion", current: current)
        }
        let next = SessionHead(appId: appId, version: head.version + 1, currentSeq: newSeq, summary: summary)
        try tx.setSession(conversationId: cid, id: ref.id, head: next)
        cache.sessions[key] = next
        return (next.version, (head.currentSeq, head.summary))
    }

    /// The summary a head's row carries, for a head the cache does not know (after a
    /// restart, or deleted). A row stored before summaries were kept with every message
    /// gets one now: its summaryText, else "<name> played <app>".
    private func storedSummary(_ cid: String, _ seq: Int, appId: String, _ tx: any StoreTransaction) throws -> String? {
        guard let old = try tx.message(conversationId: cid, seq: seq) else { return nil }
        if let s = old.summary { return s }
        var summary: String
        if let parsed = try? JSONParser.parse(old.body), case .string(let s)? = parsed["summaryText"], !s.isEmpty {
            summary = s
        } else {
            summary = try playedSummary(sender: old.sender, appId: appId, tx)
        }
        try tx.setSummary(conversationId: cid, seq: seq, summary: summary)
        return summary
    }

    /// "<name> played <app>": the summary of a move that has no summaryText.
    func playedSummary(sender: String, appId: String, _ tx: any StoreTransaction) throws -> String {
        let name = try tx.user(id: sender)?.name ?? "Someone"
        return "\(name) played \(apps.name(of: appId) ?? appId)"
    }
}
