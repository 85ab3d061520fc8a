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
                let summaryText = content.summaryText.flatMap { $0.isEmpty ? nil : $0 }
                let (version, previous) = try advanceSession(ref, appId: appId, cid: cid, newSeq: seq,
                                                             summary: summaryText, tx)
                message.sessionId = ref.id
                message.sessionVersion = version
                if let previous {
                    // The summary the engine kept when the head was sent saves reading
                    // and parsing that message on every update.
                    var summary = previous.summary
                    if summary == nil, let old = try tx.message(conversationId: cid, seq: previous.seq) {
                        summary = try self.summary(of: old, appId: appId, tx)
                    }
                    if let summary {
                        try tx.markSuperseded(conversationId: cid, seq: previous.seq, by: seq, summary: summary)
                        supersedes = (previous.seq, summary)
                    }
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

    /// The line that replaces a superseded bubble: its summaryText, else "<name> played <app>".
    private func summary(of old: StoredMessage, appId: String, _ tx: any StoreTransaction) throws -> String {
        if let parsed = try? JSONParser.parse(old.body), case .string(let s)? = parsed["summaryText"], !s.isEmpty {
            return s
        }
        let name = try tx.user(id: old.sender)?.name ?? "Someone"
        return "\(name) played \(apps.name(of: appId) ?? appId)"
    }
}
