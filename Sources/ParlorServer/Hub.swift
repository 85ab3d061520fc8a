import ParlorCore

/// Who receives what: the connections subscribed to each conversation, and which
/// members are online there (at least one subscribed connection).
struct Hub {
    private(set) var subscribers: [String: [ConnectionID: WebSocketConnection]] = [:]
    private var online: [String: [String: Int]] = [:]
    /// (connection, conversation) pairs, for metrics.
    private(set) var subscriptionCount = 0

    /// Returns true if this made the user newly online in the conversation.
    mutating func subscribe(_ c: WebSocketConnection, to conversation: String, userId: String) -> Bool {
        guard c.subscriptions.insert(conversation).inserted else { return false }
        subscriptionCount += 1
        subscribers[conversation, default: [:]][c.id] = c
        let n = online[conversation, default: [:]][userId, default: 0]
        online[conversation, default: [:]][userId] = n + 1
        return n == 0
    }

    /// Returns true if this made the user go offline in the conversation.
    mutating func unsubscribe(_ c: WebSocketConnection, from conversation: String) -> Bool {
        guard c.subscriptions.remove(conversation) != nil else { return false }
        subscriptionCount -= 1
        guard let userId = c.userId else { return false }
        subscribers[conversation]?[c.id] = nil
        if subscribers[conversation]?.isEmpty == true { subscribers[conversation] = nil }
        let n = (online[conversation]?[userId] ?? 1) - 1
        online[conversation]?[userId] = n > 0 ? n : nil
        if online[conversation]?.isEmpty == true { online[conversation] = nil }
        return n == 0
    }

    func onlineUsers(_ conversation: String) -> [String] {
        (online[conversation] ?? [:]).keys.sorted()
    }

    func subscriberCount(_ conversation: String) -> Int { subscribers[conversation]?.count ?? 0 }
}
