import ParlorCore

/// Performs what the engine decided for live connections, in the engine's order.
extension LiveState {
    /// Returns false for actions that are not about live connections (HTTP's).
    @discardableResult
    mutating func perform(_ action: EngineAction, now: UInt64 = now()) -> Bool {
        switch action {
        case .send(let id, let payload):
            enqueue(OutboundFrame(payload), to: id)
        case .broadcast(let conversation, let payload):
            broadcast(OutboundFrame(payload), to: conversation, except: nil)
        case .broadcastInSmallRoom(let conversation, let payload):
            guard subscriptions.subscriberCount(conversation) <= Limits.presenceRoomSize else { break }
            broadcast(OutboundFrame(payload), to: conversation, except: nil)
        case .toUser(let userId, let payload):
            let frame = OutboundFrame(payload)
            for id in userConnections[userId] ?? SmallSet() { enqueue(frame, to: id) }
        case .toUserExcept(let userId, let except, let payload):
            let frame = OutboundFrame(payload)
            for id in userConnections[userId] ?? SmallSet() where id != except { enqueue(frame, to: id) }
        case .left(let userId, let conversation):
            for id in userConnections[userId] ?? SmallSet() { leave(id, conversation) }
        case .subscribe(let id, let conversation, let userId):
            subscribe(id, conversation, userId)
        case .unsubscribe(let id, let conversation):
            leave(id, conversation)
        case .authenticated(let id, let userId):
            guard connections.contains(id) else { break }
            connections[id]!.userId = userId
            userConnections[userId, default: SmallSet()].insert(id)
            log.info("ws auth", metadata: ["conn": "\(id)", "user": "\(userId)"])
        case .processed(let id, let count):
            backlog.answered(count)
            guard connections.contains(id) else { break }
            let ack = metrics.ackLatency
            connections[id]!.processed(count, now: now, draining: draining,
                                       latency: { ack.recordNanoseconds(Int64($0)) }, &effects)
        case .close(let id, let code, let reason):
            guard connections.contains(id) else { break }
            connections[id]!.scheduleClose(code, reason, flush: true, &effects)
        case .replayContinues(let id, let conversation, let afterSeq, let generation):
            guard connections.contains(id) else { break }
            connections[id]!.pendingReplays.append((conversation, afterSeq, generation))
            if connections[id]!.queue.bytes <= LiveConnection.replayLowWater {
                connections[id]!.continueReplays(&effects)
            }
        case .playing(let id, let re, let conversation, let session, let userId, let on):
            play(id, re: re, conversation, session, userId: userId, on: on, now: now)
        case .databaseReachable(let reachable):
            if !reachable { sendAway() }
            return false
        case .uploadDone, .uploadAuthorized, .healthDone, .committedMessages, .signedOut:
            return false
        }
        return true
    }

    private mutating func broadcast(_ frame: OutboundFrame, to conversation: String, except: ConnectionID?) {
        guard let subs = subscriptions.subscribers[conversation] else { return }
        subs.forEach { id in if id != except { enqueue(frame, to: id) } }
    }

    private mutating func subscribe(_ id: ConnectionID, _ conversation: String, _ userId: String) {
        let conversation = subscriptions.interned(conversation)
        guard connections.contains(id), connections[id]!.subscriptions.insert(conversation) else { return }
        let first = subscriptions.subscriberCount(conversation) == 0
        let cameOnline = subscriptions.add(id, to: conversation, userId: userId)
        metrics.subscriptions.record(subscriptions.count)
        // A snapshot lists everyone online: in a big room that is n ids per subscribe.
        if subscriptions.subscriberCount(conversation) <= Limits.presenceRoomSize {
            let online = onlineEverywhere(conversation)
            enqueue(OutboundFrame(PresenceJSON.snapshot(conversationId: conversation, online: online)), to: id)
            sendPlayingSnapshot(conversation, to: id)
        }
        if cameOnline {
            presenceChanged(conversation, asks: first)
            if !remote.isOnline(userId, in: conversation) {
                announce(conversation, userId: userId, online: true, except: id)
            }
        }
    }

    mutating func leave(_ id: ConnectionID, _ conversation: String) {
        stopPlaying(id, in: conversation)
        guard connections.contains(id), connections[id]!.subscriptions.remove(conversation),
              let userId = connections[id]!.userId else { return }
        let wentOffline = subscriptions.remove(id, from: conversation, userId: userId)
        metrics.subscriptions.record(subscriptions.count)
        guard wentOffline else { return }
        presenceChanged(conversation)
        if subscriptions.subscriberCount(conversation) == 0 { remote.drop(conversation) }
        if !remote.isOnline(userId, in: conversation) { announce(conversation, userId: userId, online: false, except: nil) }
    }

    /// Tells a conversation's subscribers that a member came or went; big rooms get
    /// snapshots only, so a thousand arrivals do not cost a million frames.
    mutating func announce(_ conversation: String, userId: String, online: Bool, except: ConnectionID?) {
        guard subscriptions.subscriberCount(conversation) <= Limits.presenceRoomSize else { return }
        let payload = PresenceJSON.change(conversationId: conversation, userId: userId, online: online)
        broadcast(OutboundFrame(payload), to: conversation, except: except)
    }
}
