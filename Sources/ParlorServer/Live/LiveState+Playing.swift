import ParlorCore

/// `playing`: marks kept here because the live state sees a connection go (a closed
/// pane, a closed tab, a dropped network) the moment it happens.
extension LiveState {
    /// How long a mark lasts unless the client repeats it.
    static let playingNanoseconds = UInt64(Limits.playingSeconds) * 1_000_000_000

    mutating func play(_ id: ConnectionID, re: String?, _ conversation: String, _ session: String, userId: String,
                       on: Bool, now: UInt64) {
        guard connections.contains(id) else { return }
        let key = Playing.Key(conversation: conversation, session: session)
        if on {
            switch playing.start(id, user: userId, key, until: now &+ Self.playingNanoseconds) {
            case .full:
                return enqueue(OutboundFrame(PlayingJSON.tooMany(re)), to: id)
            case .started(newPlayer: true):
                presenceChanged(conversation)
                if !remote.isPlaying(userId, key) { announcePlaying(key, userId: userId, playing: true) }
            case .started, .renewed:
                break
            }
        } else if playing.stop(id, user: userId, key) {
            stoppedPlaying(key, userId: userId)
        }
        enqueue(OutboundFrame(PlayingJSON.done(re)), to: id)
    }

    /// Ends a connection's marks in a conversation it leaves (nil: everywhere, it closed).
    mutating func stopPlaying(_ id: ConnectionID, in conversation: String?) {
        guard let userId = connections[id]?.userId else { return }
        for key in playing.keys(of: id, in: conversation) where playing.stop(id, user: userId, key) {
            stoppedPlaying(key, userId: userId)
        }
    }

    /// Marks the client did not repeat in time: the pane was left open and forgotten.
    mutating func sweepPlaying(now: UInt64) {
        for (id, key) in playing.lapsed(now: now) {
            guard let userId = connections[id]?.userId else { continue }
            if playing.stop(id, user: userId, key) { stoppedPlaying(key, userId: userId) }
        }
    }

    /// After a subscribe: who is playing there now, if anyone.
    mutating func sendPlayingSnapshot(_ conversation: String, to id: ConnectionID) {
        let sessions = playersEverywhere(conversation)
        guard !sessions.isEmpty else { return }
        enqueue(OutboundFrame(PlayingJSON.snapshot(conversationId: conversation, sessions: sessions)), to: id)
    }

    /// The user plays the session on no connection here any more: news unless they
    /// still do on another node.
    private mutating func stoppedPlaying(_ key: Playing.Key, userId: String) {
        presenceChanged(key.conversation)
        if !remote.isPlaying(userId, key) { announcePlaying(key, userId: userId, playing: false) }
    }

    /// Like presence: news for small rooms only.
    mutating func announcePlaying(_ key: Playing.Key, userId: String, playing: Bool) {
        guard subscriptions.subscriberCount(key.conversation) <= Limits.presenceRoomSize,
              let subs = subscriptions.subscribers[key.conversation] else { return }
        let frame = OutboundFrame(PlayingJSON.change(conversationId: key.conversation, sessionId: key.session,
                                                     userId: userId, playing: playing))
        for id in subs { enqueue(frame, to: id) }
    }
}
