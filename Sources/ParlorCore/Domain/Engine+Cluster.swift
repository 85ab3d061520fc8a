/// Cluster mode (a store shared with other nodes): live message events come out of the
/// database, in seq order, on every node alike.
///
/// Each node remembers, per conversation its clients follow, the last seq it delivered
/// (`followed`). Whenever a conversation may have news — this node committed a message
/// in it, the bus rang for it (another node did), or the once-a-second sweep — the
/// engine reads the messages after that seq and broadcasts them. The seq is assigned
/// under the conversation's row lock, so seq order is commit order: a message visible
/// to a read has every smaller seq visible too. Delivery thus never skips or repeats,
/// and a lost bus message (a NATS restart) only delays delivery until the next ring or
/// sweep; the bus itself carries no message bodies, only "conversation X has news".
extension Engine {
    /// At most this many messages per conversation per batch; the rest stay pending.
    static let catchUpMessages = 200

    /// Messages this batch committed are broadcast from the database instead (below),
    /// after every other node's earlier ones. Only actions after `out.catchUpEnd` are
    /// looked at: before it, message events are catch-up's own.
    func takeLocalMessageEvents(_ out: inout Outbox) {
        var committed: [String] = []
        out.actions[out.catchUpEnd...].removeAll { action in
            guard case .broadcast(let cid, let payload) = action, MessageJSON.isMessageEvent(payload) else { return false }
            if !committed.contains(cid) { committed.append(cid) }
            return true
        }
        for cid in committed {
            pendingConversations.insert(cid)
            out.actions.append(.committedMessages(conversationId: cid))
        }
    }

    /// Takes, in id order, the locks this batch's sends, deletions and replays will take
    /// anyway: two nodes then never wait on each other in a cycle (PostgreSQL would break
    /// it only after a second, failing a request).
    func lockBatchConversations(_ batch: [EngineInput], _ tx: any StoreTransaction) throws {
        var ids: Set<String> = []
        for input in batch {
            switch input {
            case .frame(_, let bytes):
                switch RequestParser.parse(bytes).result {
                case .success(.send(let cid, _, _)), .success(.deleteMessage(let cid, _)): ids.insert(cid)
                default: break
                }
            case .replay(_, let cid, _, _):
                ids.insert(cid)
            default:
                break
            }
        }
        guard !ids.isEmpty else { return }
        do {
            try tx.isolated { try tx.lockConversations(ids.sorted()) }
        } catch let e as TransactionAborted {
            throw e
        } catch {
            log.error("cluster lock failed", metadata: ["cause": "\(Engine.describe(error))"])
        }
    }

    /// The followed conversations whose last seq is past what this node delivered.
    func findNews(_ tx: any StoreTransaction) throws {
        do {
            let seqs = try tx.isolated { try tx.lastSeqs(of: Array(followed.keys)) }
            for (cid, seq) in seqs where seq > followed[cid] ?? seq { pendingConversations.insert(cid) }
        } catch let e as TransactionAborted {
            throw e
        } catch {
            log.error("cluster sweep failed", metadata: ["cause": "\(Engine.describe(error))"])
        }
    }

    /// Broadcasts what the followed conversations with news have that this node has not
    /// delivered yet.
    func catchUpPending(_ tx: any StoreTransaction, _ out: inout Outbox) throws {
        for cid in pendingConversations {
            if try catchUp(cid, tx, &out) { pendingConversations.remove(cid) }
        }
    }

    /// True when the conversation is caught up (or not followed here).
    private func catchUp(_ cid: String, _ tx: any StoreTransaction, _ out: inout Outbox) throws -> Bool {
        guard let from = followed[cid] else { return true }
        do {
            return try tx.isolated {
                let news = try tx.messages(conversationId: cid, afterSeq: from, limit: Self.catchUpMessages)
                for m in news {
                    out.actions.append(.broadcast(conversationId: cid, MessageJSON.event(m, supersedes: try supersededInfo(m, tx))))
                }
                if let last = news.last { followed[cid] = last.seq }
                return news.count < Self.catchUpMessages
            }
        } catch let e as TransactionAborted {
            throw e
        } catch {
            log.error("cluster catch-up failed", metadata: ["cause": "\(Engine.describe(error))"])
            return false
        }
    }

    /// Starts live delivery to a connection that has every message up to `last`. In a
    /// cluster it first gets what this node has delivered to others since then.
    func subscribeLive(_ conn: ConnectionID, _ cid: String, userId: String, caughtUpTo last: Int,
                       _ tx: any StoreTransaction, _ out: inout Outbox) throws {
        if store.sharedWithOtherNodes {
            takeLocalMessageEvents(&out)
            if followed[cid] == nil { followed[cid] = last }
            if try catchUp(cid, tx, &out) == false { pendingConversations.insert(cid) }
            if let delivered = followed[cid], delivered > last {
                let limit = min(delivered - last, 2 * Self.catchUpMessages)
                for m in try tx.messages(conversationId: cid, afterSeq: last, limit: limit) where m.seq <= delivered {
                    out.actions.append(.send(conn, MessageJSON.event(m, supersedes: try supersededInfo(m, tx))))
                }
            }
            out.catchUpEnd = out.actions.count
        }
        out.actions.append(.subscribe(conn, conversationId: cid, userId: userId))
    }

    /// Where a replay must reach before the connection goes live: in a cluster, what
    /// this node has already delivered may be ahead of the database's seq read earlier.
    func replayTarget(_ cid: String, lastSeq: Int) -> Int {
        store.sharedWithOtherNodes ? max(lastSeq, followed[cid] ?? 0) : lastSeq
    }
}

extension Payload {
    /// A message event: in a cluster, each node reads these from the database itself.
    public var isMessageEvent: Bool { MessageJSON.isMessageEvent(self) }
}
