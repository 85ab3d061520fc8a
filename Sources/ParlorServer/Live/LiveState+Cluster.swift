import ParlorCore

/// Cluster mode: presence and `playing` over every node. Each node announces its own
/// state of a conversation (`NodePresence`) when it changes and every
/// `Limits.presenceRefreshSeconds`, as a `.publishPresence` effect the bus carries;
/// what other nodes announce comes back in as `nodePresence`. Members see the union:
/// a user online on two nodes is one "online", and news goes out only when the union
/// changes.
extension LiveState {
    static let presenceRefreshNanoseconds = UInt64(Limits.presenceRefreshSeconds) * 1_000_000_000
    /// An entry not repeated for this long is another node's no more.
    static let presenceLapseNanoseconds = presenceRefreshNanoseconds * UInt64(Limits.presenceMissedRefreshes)

    /// Another node's state of a conversation, from the bus.
    mutating func nodePresence(from node: String, _ state: NodePresence, now: UInt64 = now()) {
        let conversation = state.conversationId
        // Nobody here to tell: nothing is kept (a subscriber arriving asks again).
        guard sharesPresence, subscriptions.subscriberCount(conversation) > 0 else { return }
        let entry = RemotePresence.Entry(state, heardAt: now)
        guard let old = remote.replace(conversation, node: node, with: entry) else {
            log.warning("presence from too many nodes", metadata: ["conversation": "\(conversation)", "node": "\(node)"])
            return
        }
        announceRemoteChanges(conversation, node: node, from: old, to: entry)
        if state.asks { presenceChanged(conversation) }
    }

    /// This node's presence or playing in the conversation changed (`asks`: it has just
    /// begun to follow it): announced once the current input is done (`flushPresence`).
    mutating func presenceChanged(_ conversation: String, asks: Bool = false) {
        guard sharesPresence else { return }
        presenceDirty[conversation] = (presenceDirty[conversation] ?? false) || asks
    }

    /// The announcements due, as effects: one per conversation however many changes.
    mutating func flushPresence() {
        guard !presenceDirty.isEmpty else { return }
        for (conversation, asks) in presenceDirty.sorted(by: { $0.key < $1.key }) {
            let n = subscriptions.subscriberCount(conversation)
            // A big room has no presence here; others' entries for it lapse.
            guard n <= Limits.presenceRoomSize else { continue }
            var marks: [String: [String]] = [:]
            for (session, users) in playing.snapshot(conversation) { marks[session] = users }
            effects.append(.publishPresence(NodePresence(conversationId: conversation,
                                                         online: subscriptions.onlineUsers(conversation),
                                                         playing: marks, asks: asks && n > 0)))
        }
        presenceDirty.removeAll(keepingCapacity: true)
    }

    /// From the sweep: other nodes' entries that lapsed go, and every few seconds this
    /// node repeats what it holds (a node that missed an announcement, or joined late,
    /// catches up; the others know this one is alive).
    mutating func sweepRemotePresence(now: UInt64) {
        guard sharesPresence else { return }
        if now > Self.presenceLapseNanoseconds {
            var lapsedByNode: [String: Int] = [:]
            for (conversation, node) in remote.lapsed(before: now - Self.presenceLapseNanoseconds) {
                guard let old = remote.replace(conversation, node: node, with: nil) else { continue }
                lapsedByNode[node, default: 0] += 1
                announceRemoteChanges(conversation, node: node, from: old, to: .empty)
            }
            // One line per node, however many conversations it was in (a dead node, usually).
            for (node, n) in lapsedByNode {
                log.info("presence lapsed", metadata: ["node": "\(node)", "conversations": "\(n)"])
            }
        }
        guard now >= nextPresenceRefresh else { return }
        nextPresenceRefresh = now &+ Self.presenceRefreshNanoseconds
        for conversation in subscriptions.subscribers.keys where presenceDirty[conversation] == nil {
            presenceDirty[conversation] = false
        }
    }

    /// Who is online in the conversation, on any node.
    func onlineEverywhere(_ conversation: String) -> [String] {
        let here = subscriptions.onlineUsers(conversation)
        guard remote.rooms[conversation] != nil else { return here }
        return Set(here).union(remote.online(conversation)).sorted()
    }

    /// Who plays what in the conversation, on any node, in a stable order.
    func playersEverywhere(_ conversation: String) -> [(sessionId: String, userIds: [String])] {
        let here = playing.snapshot(conversation)
        guard remote.rooms[conversation] != nil else { return here }
        var all = remote.players(conversation)
        for (session, users) in here { all[session, default: []].formUnion(users) }
        return all.keys.sorted().map { ($0, all[$0]!.sorted()) }
    }

    /// News for the users whose state, over all nodes, one node's new entry changed.
    private mutating func announceRemoteChanges(_ conversation: String, node: String,
                                                from old: RemotePresence.Entry, to new: RemotePresence.Entry) {
        for user in old.online.symmetricDifference(new.online).sorted()
        where !subscriptions.isOnline(user, in: conversation) && !remote.isOnline(user, in: conversation, except: node) {
            announce(conversation, userId: user, online: new.online.contains(user), except: nil)
        }
        for session in Set(old.playing.keys).union(new.playing.keys).sorted() {
            let key = Playing.Key(conversation: conversation, session: session)
            let before = old.playing[session] ?? [], after = new.playing[session] ?? []
            for user in before.symmetricDifference(after).sorted()
            where !playing.isPlaying(user, key) && !remote.isPlaying(user, key, except: node) {
                announcePlaying(key, userId: user, playing: after.contains(user))
            }
        }
    }
}
