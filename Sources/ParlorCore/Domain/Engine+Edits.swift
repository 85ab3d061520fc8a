/// `messages.edit`: the sender fixes one of their text messages, as in Messages
/// (iOS 16): within `EngineSettings.editSeconds` of its `createdAt`, at most
/// `Limits.editsPerMessage` times.
///
/// The message changes where it stands (its body gets the new text, `editedAt` and
/// `editCount`), and an **edit record** takes the next seq, carrying the new text, so
/// live subscribers and clients resuming later learn of it from the one ordered stream,
/// as a deletion record does. Only the newest edit record of a message holds its text:
/// the one before it is scrubbed to `{"kind":"edit","edits":N,"editCount":n}` as the
/// next is stored, and deleting the message scrubs the last. Earlier texts are then
/// kept nowhere (the WAL is emptied as for a deletion).
extension Engine {
    func editMessage(_ cid: String, _ seq: Int, text: String, mentions given: [String]?, id: String?, conn: ConnectionID, userId: String,
                     _ tx: any StoreTransaction, _ out: inout Outbox) throws {
        try limit(\.sends, userId, "messages")
        let m = try standingMessage(cid, seq, to: "edit", userId: userId, tx)
        guard m.body.starts(with: Self.textPrefix), let body = try? JSONParser.parse(m.body),
              case .string(let oldText)? = body["text"] else {
            throw ParlorError(.invalidField, "only a text message can be edited", field: "seq")
        }
        guard m.sender == userId else {
            throw ParlorError(.forbidden, "only its sender may edit a message")
        }
        let oldMentions = Self.mentions(in: body)
        // The same words again: a retry of an edit already stored (or nothing to do).
        // Answered with the message as it is, before the limits, and nothing is stored.
        if oldText == text, given == nil || given == oldMentions {
            let bytes = MessageJSON.bytes(m)
            out.result(conn, id) { w in w.key("message"); w.raw(bytes) }
            return
        }
        let at = now()
        guard settings.editSeconds > 0, at - m.createdAt <= settings.editSeconds * 1000 else {
            throw ParlorError(.forbidden, "a message can be edited only in the \(Self.describe(seconds: settings.editSeconds)) after it was sent",
                              field: "seq")
        }
        var count = 0
        if case .number(let n)? = body["editCount"] { count = Int(n) }
        guard count < Limits.editsPerMessage else {
            throw ParlorError(.forbidden, "a message can be edited at most \(Limits.editsPerMessage) times", field: "seq")
        }
        var replyTo: Int?
        if case .number(let r)? = body["replyTo"] { replyTo = Int(r) }
        guard let last = try cache.lastSeq[cid] ?? tx.lastSeq(conversationId: cid) else { throw ParlorError.notMember }
        let mentions: [String]
        if let given {
            try checkMentions(cid, text, given, field: "mentions", tx)
            mentions = given
        } else {
            mentions = try stillNamed(cid, text, oldMentions, tx)
        }

        count += 1
        var edited = m
        edited.body = Self.editedBody(text, replyTo: replyTo, mentions: mentions, editedAt: at, editCount: count)
        try tx.setBody(conversationId: cid, seq: seq, body: edited.body)
        if count > 1 { try scrubEditRecord(cid, seq, sender: userId, number: count - 1, tx) }
        let record = StoredMessage(
            conversationId: cid, seq: last + 1, clientId: Self.editClientId(cid, seq, count),
            sender: userId, createdAt: at,
            body: JSONWriter.object { w in
                w.field("kind", "edit")
                w.field("edits", seq)
                w.field("text", text)
                if !mentions.isEmpty { w.key("mentions"); MessageJSON.strings(mentions, into: &w) }
                w.field("editCount", count)
            })
        guard try tx.insert(record) else { throw ParlorError(.internalError, "the edit's record could not be stored") }
        cache.lastSeq[cid] = last + 1
        out.deletedText = true  // the earlier text: soon in no file of the store
        let bytes = MessageJSON.bytes(edited)
        out.result(conn, id) { w in w.key("message"); w.raw(bytes) }
        out.actions.append(.broadcast(conversationId: cid, MessageJSON.event(record, supersedes: nil)))
    }

    /// The message a member acts on (edits, reports): `not_member` for a conversation they
    /// are not in, `not_found` for one that is not there, deleted or a deletion record.
    func standingMessage(_ cid: String, _ seq: Int, to verb: String, userId: String,
                         _ tx: any StoreTransaction) throws -> StoredMessage {
        try requireMember(cid, userId, tx)
        let notFound = ParlorError(.notFound, "there is no message \(seq) to \(verb)", field: "seq")
        guard let m = try tx.message(conversationId: cid, seq: seq) else {
            guard try tx.lastSeq(conversationId: cid) != nil else { throw ParlorError.notMember }
            throw notFound
        }
        guard m.deletedAt == nil, !m.isDeletionRecord else { throw notFound }
        return m
    }

    /// A deleted message's edit records keep none of its texts.
    func scrubEditRecords(of m: StoredMessage, _ tx: any StoreTransaction) throws {
        guard m.body.starts(with: Self.textPrefix), let body = try? JSONParser.parse(m.body),
              case .number(let n)? = body["editCount"], n >= 1 else { return }
        for number in 1...min(Int(n), Limits.editsPerMessage) {
            try scrubEditRecord(m.conversationId, m.seq, sender: m.sender, number: number, tx)
        }
    }

    private func scrubEditRecord(_ cid: String, _ seq: Int, sender: String, number: Int,
                                 _ tx: any StoreTransaction) throws {
        guard let used = try tx.clientIdUse(sender: sender, clientId: Self.editClientId(cid, seq, number)),
              used.conversationId == cid else { return }
        try tx.setBody(conversationId: cid, seq: used.seq, body: JSONWriter.object { w in
            w.field("kind", "edit")
            w.field("edits", seq)
            w.field("editCount", number)
        })
    }

    private static let textPrefix = Array(#"{"kind":"text","#.utf8)

    /// The body of an edited text: what `MessageContent.text` writes, then when and how
    /// many times it was edited.
    static func editedBody(_ text: String, replyTo: Int?, mentions: [String] = [], editedAt: Int, editCount: Int) -> [UInt8] {
        var body = MessageContent.text(text, replyTo: replyTo, mentions: mentions).bodyJSON
        if body.last == UInt8(ascii: "}") { body.removeLast() }
        body.append(contentsOf: #","editedAt":\#(editedAt),"editCount":\#(editCount)}"#.utf8)
        return body
    }

    /// The record of the `number`th edit of message `seq`: found again by it (the
    /// sender's clientId index) to be scrubbed. Longer than any client's clientId (64),
    /// so no send can take it first.
    static func editClientId(_ cid: String, _ seq: Int, _ number: Int) -> String {
        let id = "edit-of-\(cid)-\(seq)-\(number)-"
        return id + String(repeating: "0", count: max(0, Limits.idChars + 1 - id.count))
    }

    private static func describe(seconds: Int) -> String {
        seconds % 60 == 0 ? "\(seconds / 60) minute\(seconds == 60 ? "" : "s")" : "\(seconds) second\(seconds == 1 ? "" : "s")"
    }
}

extension StoredMessage {
    /// A text its sender edited since (`messages.edit`): a send retried with its clientId
    /// is answered with it as it is now, its first words being kept nowhere to compare.
    var wasEdited: Bool {
        let mark = Array(#","editedAt":"#.utf8)
        return body.starts(with: Array(#"{"kind":"text","#.utf8)) && body.firstRange(of: mark) != nil
    }
}

extension MessageContent {
    var isText: Bool { if case .text = self { true } else { false } }
}
