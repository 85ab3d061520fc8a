/// `send`: idempotency, sessions and sequencing. A message is acknowledged only in
/// the actions of a batch, which the service thread performs after the commit.
///
/// `send` runs without a savepoint of its own (`Engine.withoutSavepoint`): every
/// refusal (a `ParlorError`) must be thrown before its first write.
extension Engine {
    func send(conversationId cid: String, clientId: String, content: MessageContent, id: String?,
              conn: ConnectionID, userId: String, _ tx: any StoreTransaction, _ out: inout Outbox) throws {
        try limit(\.sends, userId, "messages")
        try requireMember(cid, userId, tx)
        let body = content.bodyJSON

        // A retry of a message we already stored: answer with the original.
        if let used = try tx.clientIdUse(sender: userId, clientId: clientId) {
            // The same clientId is a retry only for the same content, sent to the same
            // conversation from the same session version.
            guard used.conversationId == cid,
                  let existing = try tx.message(conversationId: cid, seq: used.seq),
                  existing.body == body,
                  (existing.sessionVersion.map { $0 - 1 } ?? 0) == (content.session?.baseVersion ?? 0) else {
                throw ParlorError(.clientIdReused, "this clientId was already used for a different message", field: "clientId")
            }
            let bytes = MessageJSON.bytes(existing)
            out.result(conn, id) { w in w.key("message"); w.raw(bytes) }
            return
        }

        try requireBlobs(content)
        guard let last = try cache.lastSeq[cid] ?? tx.lastSeq(conversationId: cid) else { throw ParlorError.notMember }
        let seq = last + 1

        if case .sticker(let s) = content, let target = s.stuckTo, target.seq > last {
            throw ParlorError(.notFound, "there is no message \(target.seq) to stick this on", field: "message.stuckTo.seq")
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

        try tx.insert(message)
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

    /// Every image a message refers to must have been uploaded.
    private func requireBlobs(_ content: MessageContent) throws {
        for (hash, field) in content.images where !cache.blobs.contains(hash) {
            guard blobs.find(hash) != nil else {
                throw ParlorError(.notFound, "no image was uploaded with this hash", field: field)
            }
            cache.blobs.insert(hash)
        }
    }

    /// Checks the update against the session's version and moves its head; returns the
    /// new version and the message it supersedes. A stale base is a conflict carrying the
    /// current message.
    private func advanceSession(_ ref: SessionRef, appId: String, cid: String, newSeq: Int, summary: String?,
                                _ tx: any StoreTransaction) throws -> (version: Int, previous: (seq: Int, summary: String?)?) {
        let key = cid + "\u{0}" + ref.id
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
