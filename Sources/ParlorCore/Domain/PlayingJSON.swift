/// The `playing` events (who has which session open in the expanded pane) and the
/// answers to a `playing` request, which the live state gives: it holds the marks.
public enum PlayingJSON {
    /// Everyone playing, by session: sent after `subscribe` when anyone is.
    public static func snapshot(conversationId: String, sessions: [(sessionId: String, userIds: [String])]) -> Payload {
        Payload { w in
            w.field("type", "playing")
            w.field("conversationId", conversationId)
            w.key("sessions")
            w.beginObject()
            for (sid, users) in sessions {
                w.key(text: sid)
                w.beginArray()
                for u in users { w.string(u) }
                w.endArray()
            }
            w.endObject()
        }
    }

    /// One member opened or closed a session (or their mark lapsed, or they went away).
    public static func change(conversationId: String, sessionId: String, userId: String, playing: Bool) -> Payload {
        Payload { w in
            w.field("type", "playing")
            w.field("conversationId", conversationId)
            w.field("sessionId", sessionId)
            w.field("userId", userId)
            w.field("playing", playing)
        }
    }

    public static func done(_ re: String?) -> Payload { Replies.result(re) { _ in } }

    public static func tooMany(_ re: String?) -> Payload {
        Replies.error(re, ParlorError(.tooManySessions,
            "a connection has at most \(Limits.playingPerConnection) sessions open at once; close one first",
            field: "sessionId"))
    }
}
