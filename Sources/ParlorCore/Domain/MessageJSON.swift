/// The wire form of messages and conversations (docs/PROTOCOL.md, "Message").
enum MessageJSON {
    static func write(_ m: StoredMessage, into w: inout JSONWriter) {
        w.beginObject()
        w.field("seq", m.seq)
        w.field("clientId", m.clientId)
        w.field("sender", m.sender)
        w.field("createdAt", m.createdAt)
        // The stored body is one JSON object; splice its fields into this one.
        if m.body.count > 2 {
            w.raw(m.body[1..<(m.body.count - 1)])
        }
        w.field("senderParticipantId", m.senderParticipantId)
        if let sid = m.sessionId, let v = m.sessionVersion {
            w.key("session")
            w.beginObject()
            w.field("id", sid)
            w.field("version", v)
            w.endObject()
        }
        // Every session message keeps its summary; it is shown once it is superseded.
        if let by = m.supersededBy {
            w.field("supersededBy", by)
            w.field("summary", m.summary)
        }
        w.field("deletedAt", m.deletedAt)
        w.endObject()
    }

    static func bytes(_ m: StoredMessage) -> [UInt8] {
        var w = JSONWriter(capacity: m.body.count + 160)
        write(m, into: &w)
        return w.bytes
    }

    /// The `message` event, built once and sent to every subscriber.
    private static let eventPrefix = Array(#"{"type":"message","#.utf8)

    /// Whether a payload is a message event (as `event` writes them).
    static func isMessageEvent(_ p: Payload) -> Bool { p.json.starts(with: eventPrefix) }

    static func event(_ m: StoredMessage, supersedes: (seq: Int, summary: String)?) -> Payload {
        event(conversationId: m.conversationId, message: bytes(m), supersedes: supersedes)
    }

    /// The event around a message already serialized (the send path serializes it once
    /// for both the sender's result and everyone's event).
    static func event(conversationId: String, message: [UInt8], supersedes: (seq: Int, summary: String)?) -> Payload {
        Payload(capacity: message.count + 120) { w in
            w.field("type", "message")
            w.field("conversationId", conversationId)
            w.key("message")
            w.raw(message)
            if let s = supersedes {
                w.key("supersedes")
                w.beginObject()
                w.field("seq", s.seq)
                w.field("summary", s.summary)
                w.endObject()
            }
        }
    }

    static func write(_ c: Conversation, into w: inout JSONWriter) {
        w.beginObject()
        w.field("id", c.id)
        w.field("title", c.title)
        w.field("createdAt", c.createdAt)
        w.field("lastSeq", c.lastSeq)
        w.field("memberCount", c.memberCount)
        w.field("createdBy", c.createdBy)
        if let pair = c.directUserIds { w.field("direct", true); w.key("directUserIds"); strings(pair, into: &w) }
        if let names = c.directNames { w.key("directNames"); strings(names, into: &w) }
        if let read = c.lastReadSeq { w.field("lastReadSeq", read) }
        if let notify = c.notify { w.field("notify", notify.rawValue) }
        w.key("members")
        w.beginArray()
        for m in c.members { write(m, into: &w) }
        w.endArray()
        w.endObject()
    }

    static func write(_ m: Member, into w: inout JSONWriter) {
        w.beginObject()
        w.field("userId", m.userId)
        w.field("name", m.name)
        w.endObject()
    }

    static func write(_ u: User, into w: inout JSONWriter) {
        w.beginObject()
        w.field("id", u.id)
        w.field("name", u.name)
        if u.admin { w.field("admin", true) }  // only for admins: other clients see no change
        w.endObject()
    }

    static func strings(_ list: [String], into w: inout JSONWriter) {
        w.beginArray()
        for s in list { w.string(s) }
        w.endArray()
    }
}
