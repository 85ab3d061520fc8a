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
        var makesDirect = false
        for input in batch {
            switch input {
            case .frame(_, let bytes):
                switch RequestParser.parse(bytes).result {
                case .success(.send(let cid, _, _)), .success(.deleteMessage(let cid, _)),
                     .success(.editMessage(let cid, _, _, _)): ids.insert(cid)
                case .success(.openDirect): makesDirect = true
                default: break
                }
            case .replay(_, let cid, _, _):
                ids.insert(cid)
            default:
                break
            }
        }
        guard !ids.isEmpty || makesDirect else { return }
        do {
            // the pairs' lock first, then the conversations': every node in the same order
            if makesDirect { try tx.isolated { try tx.lockDirectPairs() } }
            try tx.isolated { try tx.lockConversations(ids.sorted()) }
        } catch let e as TransactionAborted {
            throw e
        } catch {
            // Another node holds one of them past the lock timeout (hung, say): its sends
            // are refused as busy at once, rather than each waiting out the timeout again.
            if (error as? PGError)?.isLockTimeout == true { lockTimedOut = ids }
            log.error("cluster lock failed", metadata: ["cause": "\(Engine.describe(error))"])
        }
    }

    /// A send to a conversation another node held locked waits this long to try again.
    static let lockedRetryMs = 2_000

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

extension Engine {
    /// A sign-out reaches the other nodes over the bus, at most once: one told while
    /// nats-server restarted was lost for good, and the revoked device or deactivated
    /// account kept its connection there, sending and reading (a cluster review, 4 of
    /// 4). So every `signInCheckMs` each node asks the shared database whether its
    /// connections' devices still sign in, and closes those that do not.
    static let signInCheckMs = 10_000

    func checkSignIns(_ tx: any StoreTransaction, _ out: inout Outbox) throws {
        let t = now()
        guard t >= nextSignInCheck else { return }
        nextSignInCheck = t + Self.signInCheckMs
        var userOf: [String: String] = [:]
        for state in connections.values where !state.signedOut {
            if let device = state.deviceId, let user = state.userId { userOf[device] = user }
        }
        guard !userOf.isEmpty else { return }
        let active = try tx.isolated { try tx.activeDevices(among: Array(userOf.keys)) }
        for (device, user) in userOf.sorted(by: { $0.key < $1.key }) where !active.contains(device) {
            switch try tx.isolated({ try tx.accountStatus(userId: user) }) {
            case .deleted?: signOut(user: user, .deleted, &out, announce: false)
            case .deactivated?: signOut(user: user, .deactivated, &out, announce: false)
            default: signOut(device: device, &out, announce: false)
            }
            log.notice("closed a signed-out device's connections the bus did not tell of", metadata: ["device": "\(device)", "user": "\(user)"])
        }
    }
}
