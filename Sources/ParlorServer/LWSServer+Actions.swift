import CLibWebSockets
import ParlorCore

/// Performs what the engine decided, on the service thread, in the engine's order.
extension LWSServer {
    func perform(_ action: EngineAction) {
        switch action {
        case .send(let id, let frame):
            if let c = connections[id] { enqueue(frame, to: c) }
        case .broadcast(let conversation, let frame):
            guard let subs = hub.subscribers[conversation] else { return }
            for c in subs.values { enqueue(frame, to: c) }
        case .broadcastInSmallRoom(let conversation, let frame):
            guard let subs = hub.subscribers[conversation], subs.count <= Limits.presenceRoomSize else { return }
            for c in subs.values { enqueue(frame, to: c) }
        case .toUser(let userId, let frame):
            for c in (userConnections[userId] ?? [:]).values { enqueue(frame, to: c) }
        case .subscribe(let id, let conversation, let userId):
            guard let c = connections[id] else { return }
            let cameOnline = hub.subscribe(c, to: conversation, userId: userId)
            metrics.subscriptions.record(hub.subscriptionCount)
            // A snapshot lists everyone online: in a big room that is n ids per subscribe.
            if hub.subscriberCount(conversation) <= Limits.presenceRoomSize {
                enqueue(presenceSnapshot(conversation), to: c)
            }
            if cameOnline { announce(conversation, userId: userId, online: true, except: c) }
        case .unsubscribe(let id, let conversation):
            if let c = connections[id] { leave(c, conversation) }
        case .authenticated(let id, let userId):
            guard let c = connections[id] else { return }
            c.userId = userId
            userConnections[userId, default: [:]][id] = c
            log.info("ws auth", metadata: ["conn": "\(id)", "user": "\(userId)"])
        case .processed(let id, let count):
            guard let c = connections[id] else { return }
            c.inFlight -= count
            let now = ServerMetrics.now()
            for t in c.readAt.prefix(count) { metrics.ackLatency.recordNanoseconds(Int64(now - t)) }
            c.readAt.removeFirst(min(count, c.readAt.count))
            if c.readingPaused && c.inFlight <= WebSocketConnection.maxInFlight / 2 && !isDraining {
                c.readingPaused = false
                lws_rx_flow_control(c.wsi, 1)
            }
        case .close(let id, let code, let reason):
            if let c = connections[id] { scheduleClose(c, code, reason, flush: true) }
        case .uploadDone(let id, let status, let body):
            uploadDone(id, status, body)
        case .healthDone(let id, let problem):
            healthDone(id, problem)
        case .uploadAuthorized(let id, let ok):
            uploadAuthorized(id, ok)
        case .replayContinues(let id, let conversation, let afterSeq, let generation):
            guard let c = connections[id] else { return }
            c.pendingReplays.append((conversation, afterSeq, generation))
            if c.queuedBytes <= WebSocketConnection.replayLowWater { continueReplays(c) }
        }
    }

    func leave(_ c: WebSocketConnection, _ conversation: String) {
        let wentOffline = hub.unsubscribe(c, from: conversation)
        metrics.subscriptions.record(hub.subscriptionCount)
        if wentOffline, let userId = c.userId {
            announce(conversation, userId: userId, online: false, except: nil)
        }
    }

    private func presenceSnapshot(_ conversation: String) -> OutboundFrame {
        OutboundFrame(text: JSONWriter.object { w in
            w.field("type", "presence")
            w.field("conversationId", conversation)
            w.key("online")
            w.beginArray()
            for u in hub.onlineUsers(conversation) { w.string(u) }
            w.endArray()
        })
    }

    /// Tells a conversation's subscribers that a member came or went; big rooms get
    /// snapshots only, so a thousand arrivals do not cost a million frames.
    private func announce(_ conversation: String, userId: String, online: Bool, except: WebSocketConnection?) {
        guard let subs = hub.subscribers[conversation], subs.count <= Limits.presenceRoomSize else { return }
        let frame = OutboundFrame(text: JSONWriter.object { w in
            w.field("type", "presence")
            w.field("conversationId", conversation)
            w.field("userId", userId)
            w.field("online", online)
        })
        for c in subs.values where c !== except { enqueue(frame, to: c) }
    }
}
