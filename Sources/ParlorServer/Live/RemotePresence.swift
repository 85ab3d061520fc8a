import ParlorCore

/// Cluster mode: the presence other nodes hold, per conversation and node, as each node
/// last announced it (`NodePresence`). Held only for conversations with a subscriber
/// here, for at most `Limits.presenceNodes` nodes each; an entry its node stops
/// repeating (killed with -9, cut off from the bus) lapses.
struct RemotePresence {
    struct Entry: Equatable {
        var online: Set<String> = []
        /// Session → users.
        var playing: [String: Set<String>] = [:]
        var heardAt: UInt64 = 0

        static let empty = Entry()

        init() {}

        init(_ p: NodePresence, heardAt: UInt64) {
            online = Set(p.online)
            for (session, users) in p.playing { playing[session] = Set(users) }
            self.heardAt = heardAt
        }

        var isEmpty: Bool { online.isEmpty && playing.isEmpty }
    }

    /// conversation → node → what it holds there.
    private(set) var rooms: [String: [String: Entry]] = [:]

    /// Whether any node (but `node`) has the user online in the conversation.
    func isOnline(_ user: String, in conversation: String, except node: String? = nil) -> Bool {
        rooms[conversation]?.contains { $0.key != node && $0.value.online.contains(user) } ?? false
    }

    func isPlaying(_ user: String, _ key: Playing.Key, except node: String? = nil) -> Bool {
        rooms[key.conversation]?.contains { $0.key != node && $0.value.playing[key.session]?.contains(user) == true }
            ?? false
    }

    func online(_ conversation: String) -> Set<String> {
        (rooms[conversation] ?? [:]).values.reduce(into: []) { $0.formUnion($1.online) }
    }

    /// Session → users, over every node.
    func players(_ conversation: String) -> [String: Set<String>] {
        var out: [String: Set<String>] = [:]
        for entry in (rooms[conversation] ?? [:]).values {
            for (session, users) in entry.playing { out[session, default: []].formUnion(users) }
        }
        return out
    }

    /// Puts the node's new entry in place (nil or empty: it holds nothing there now) and
    /// returns the one it replaces (`.empty` if none); nil, changing nothing, when the
    /// conversation already holds `Limits.presenceNodes` other nodes.
    mutating func replace(_ conversation: String, node: String, with entry: Entry?) -> Entry? {
        let old = rooms[conversation]?[node]
        guard let entry, !entry.isEmpty else {
            rooms[conversation]?[node] = nil
            if rooms[conversation]?.isEmpty == true { rooms[conversation] = nil }
            return old ?? .empty
        }
        if old == nil, (rooms[conversation]?.count ?? 0) >= Limits.presenceNodes { return nil }
        rooms[conversation, default: [:]][node] = entry
        return old ?? .empty
    }

    /// Nobody here follows the conversation any more: nothing of it is kept.
    mutating func drop(_ conversation: String) { rooms[conversation] = nil }

    /// (conversation, node) of the entries last heard before `time`.
    func lapsed(before time: UInt64) -> [(String, String)] {
        var out: [(String, String)] = []
        for (conversation, nodes) in rooms {
            for (node, entry) in nodes where entry.heardAt < time { out.append((conversation, node)) }
        }
        return out.sorted { ($0.0, $0.1) < ($1.0, $1.1) }
    }
}
