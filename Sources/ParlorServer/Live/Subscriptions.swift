import ParlorCore

/// Who receives what: the connections subscribed to each conversation, and which
/// members are online there (at least one subscribed connection).
struct Subscriptions {
    private(set) var subscribers: [String: SmallSet<ConnectionID>] = [:]
    private var online: [String: [String: Int]] = [:]
    /// (connection, conversation) pairs, for metrics.
    private(set) var count = 0

    /// Returns true if this made the user newly online in the conversation.
    mutating func add(_ id: ConnectionID, to conversation: String, userId: String) -> Bool {
        guard subscribers[conversation, default: SmallSet()].insert(id) else { return false }
        count += 1
        let n = online[conversation, default: [:]][userId, default: 0]
        online[conversation, default: [:]][userId] = n + 1
        return n == 0
    }

    /// Returns true if this made the user go offline in the conversation.
    mutating func remove(_ id: ConnectionID, from conversation: String, userId: String) -> Bool {
        guard subscribers[conversation]?.remove(id) == true else { return false }
        count -= 1
        if subscribers[conversation]?.isEmpty == true { subscribers[conversation] = nil }
        let n = (online[conversation]?[userId] ?? 1) - 1
        online[conversation]?[userId] = n > 0 ? n : nil
        if online[conversation]?.isEmpty == true { online[conversation] = nil }
        return n == 0
    }

    func onlineUsers(_ conversation: String) -> [String] {
        (online[conversation] ?? [:]).keys.sorted()
    }

    func isOnline(_ userId: String, in conversation: String) -> Bool { online[conversation]?[userId] != nil }

    func subscriberCount(_ conversation: String) -> Int { subscribers[conversation]?.count ?? 0 }

    /// The conversation's id as already held here, if it is: each subscribe brings its
    /// own copy (parsed from its request, 64 bytes), and a connection keeps the id it
    /// subscribed to, so a room's connections share one instead of keeping one each.
    func interned(_ conversation: String) -> String {
        subscribers.index(forKey: conversation).map { subscribers[$0].key } ?? conversation
    }
}
