/// Cluster mode: who is online and playing in one conversation on one node, as that
/// node announces it to the others on the bus (ParlorCluster) and they hand it to their
/// live state. Always the node's whole state for the conversation, never a change, so
/// a lost announcement is repaired by the next one (each node repeats its own every
/// `Limits.presenceRefreshSeconds`).
public struct NodePresence: Sendable, Equatable {
    public var conversationId: String
    /// Users with a connection subscribed to the conversation on that node.
    public var online: [String]
    /// Session → users with it open in their pane on that node.
    public var playing: [String: [String]]
    /// The node has just begun to hold this conversation: others answer with theirs at
    /// once, rather than at their next repeat.
    public var asks: Bool

    public init(conversationId: String, online: [String], playing: [String: [String]] = [:], asks: Bool = false) {
        self.conversationId = conversationId
        self.online = online
        self.playing = playing
        self.asks = asks
    }

    /// The most one announcement may carry: a node holds presence for rooms of up to
    /// `presenceRoomSize` subscribers, each connection marking up to
    /// `playingPerConnection` sessions.
    public static let maxOnline = Limits.presenceRoomSize
    public static let maxMarks = Limits.presenceRoomSize * Limits.playingPerConnection

    /// The bus's bytes: `{"node":…,"online":[…],"playing":{"s":[…]},"asks":true}`.
    public func encoded(node: String) -> [UInt8] {
        JSONWriter.object { w in
            w.field("node", node)
            w.key("online")
            w.beginArray()
            for u in online { w.string(u) }
            w.endArray()
            w.key("playing")
            w.beginObject()
            for (session, users) in playing.sorted(by: { $0.key < $1.key }) {
                w.key(text: session)
                w.beginArray()
                for u in users { w.string(u) }
                w.endArray()
            }
            w.endObject()
            if asks { w.field("asks", true) }
        }
    }

    /// Reads another node's announcement; nil when it is malformed or over the bounds
    /// above (a node on another release, or a broken one, must not make this one hold
    /// more than a room's worth).
    public static func decode(_ bytes: some Collection<UInt8>, conversationId: String) -> (node: String, NodePresence)? {
        guard let v = try? JSONParser.parse(bytes), case .string(let node)? = v["node"], isId(node),
              case .array(let list)? = v["online"], list.count <= maxOnline,
              case .object(let marks)? = v["playing"] else { return nil }
        var online: [String] = []
        for u in list {
            guard case .string(let s) = u, isId(s) else { return nil }
            online.append(s)
        }
        var playing: [String: [String]] = [:]
        var count = 0
        for (i, session) in marks.keys.enumerated() {
            guard isId(session), case .array(let users) = marks.values[i] else { return nil }
            count += users.count
            guard count <= maxMarks else { return nil }
            var ids: [String] = []
            for u in users {
                guard case .string(let s) = u, isId(s) else { return nil }
                ids.append(s)
            }
            if !ids.isEmpty { playing[session] = ids }
        }
        let asks = v["asks"] == .bool(true)
        return (node, NodePresence(conversationId: conversationId, online: online, playing: playing, asks: asks))
    }

    private static func isId(_ s: String) -> Bool { !s.isEmpty && s.utf8.count <= Limits.idChars }
}
