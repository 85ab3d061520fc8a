/// The `presence` events: who is online in a conversation. The live state decides
/// when to send them (it knows the subscriptions); their shape is the protocol's.
public enum PresenceJSON {
    /// Everyone online, sent to a connection when it subscribes.
    public static func snapshot(conversationId: String, online: [String]) -> Payload {
        Payload { w in
            w.field("type", "presence")
            w.field("conversationId", conversationId)
            w.key("online")
            w.beginArray()
            for u in online { w.string(u) }
            w.endArray()
        }
    }

    /// One member came online or went offline.
    public static func change(conversationId: String, userId: String, online: Bool) -> Payload {
        Payload { w in
            w.field("type", "presence")
            w.field("conversationId", conversationId)
            w.field("userId", userId)
            w.field("online", online)
        }
    }
}
