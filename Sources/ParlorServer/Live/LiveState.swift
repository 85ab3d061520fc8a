import Dispatch
import Logging
import ParlorCore

/// The live side of the server as a value: connections, subscriptions, presence, each
/// connection's queue and flow control, the slow-consumer policy. It takes inputs
/// (a connection opened, a frame read, a socket writeable, an engine action, a sweep)
/// and records effects (`LiveEffect`) that the transport performs; it never touches a
/// socket, so Tests/ParlorServerTests drive it directly.
struct LiveState {
    // Changed only by the methods here and in LiveState+Actions.swift.
    var connections = ConnectionTable()
    var subscriptions = Subscriptions()
    /// Who has which session open in the expanded pane (LiveState+Playing.swift).
    var playing = Playing()
    /// Each signed-in user's open connections, for events meant for all of them.
    var userConnections: [String: SmallSet<ConnectionID>] = [:]
    /// Addresses whose connections held more than `Limits.outboundBytesPerAddress`
    /// together at the last sweep.
    var addressesOverAtSweep: Set<String> = []
    /// Cluster mode (LiveState+Cluster.swift): whether this node shares presence with
    /// others, what they hold, and the conversations whose state is due to be announced
    /// (true: asking the others for theirs).
    var sharesPresence = false
    var remote = RemotePresence()
    var presenceDirty: [String: Bool] = [:]
    var nextPresenceRefresh: UInt64 = 0
    var effects: [LiveEffect] = []
    /// Idle connections' buffers the sweep gave back since the transport last trimmed
    /// the heap (LWSServer.sweep).
    var releasedBuffers = 0
    /// Slow consumers' backlogs dropped since the last heap trim (up to megabytes each).
    var droppedBacklogs = 0
    var draining = false
    /// A drain's progress (LiveState+ClosingAll.swift): connections in the order it closes
    /// them, how far it got, and those it passed while their requests were unanswered.
    var drainOrder: [ConnectionID] = []
    var drainNext = 0
    var drainAnswering: [ConnectionID] = []
    /// Closes a drain or a lost database began, whose connections are not gone yet.
    var closingInWave = Set<ConnectionID>()
    /// A lost database's closes (1013) still to begin, in order.
    var awayOrder: [ConnectionID] = []
    var awayNext = 0
    /// When each frame the engine has not answered yet was read (see `busyAfter`).
    var backlog = Backlog()
    /// Once the oldest unanswered frame has waited this long, sends are refused as
    /// `server_busy` until the engine catches up (0: never). A server past its capacity
    /// otherwise queues without bound, and every request, a history page or a sign-in,
    /// waits behind the backlog (docs/BENCHMARKS.md, session 14).
    let busyAfter: UInt64
    /// The latest `busyUntil` any connection was given: past it none is being refused,
    /// and a frame need not look its connection up again to know.
    var busyUntilLatest: UInt64 = 0
    /// Sends refused as busy since the sweep last told the log (once a second, not one
    /// line per refusal: an operator sees that it happens and how much).
    var busyRefusedUnlogged = 0
    let log: Logger
    let metrics = LiveMetrics()
    /// Nanoseconds of silence after which a connection is pinged (see `sweep`).
    let keepalive: UInt64

    init(log: Logger, keepaliveSeconds: Int = Limits.keepaliveSeconds, busyAfterMs: Int = Limits.busyAfterMs) {
        self.log = log
        keepalive = UInt64(keepaliveSeconds) * 1_000_000_000
        busyAfter = UInt64(max(0, busyAfterMs)) * 1_000_000
    }

    /// Uptime nanoseconds: the clock every `now` below is read from.
    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Hands over the effects recorded so far (into `out`, whose storage is reused up
    /// to a size: a burst of thousands of connections must not keep its buffers for good).
    mutating func takeEffects(into out: inout [LiveEffect]) {
        flushPresence()
        out.removeAll(keepingCapacity: out.capacity <= 1024)
        swap(&out, &effects)
    }

    /// A connection opened: returns the id it is known by from now on. `peer`: the
    /// client's address (behind a trusted proxy, the one it forwarded), which the
    /// engine's per-address limits count by.
    mutating func open(peer: String, now: UInt64 = now()) -> ConnectionID {
        let id = connections.insert { LiveConnection(id: $0, openedAt: now, address: peer) }
        // accepted just before the drain began, established after: closed by it too
        if draining { drainOrder.append(id) }
        metrics.connections.record(connections.count)
        effects.append(.submit(.opened(id, address: peer)))
        log.info("ws open", metadata: ["conn": "\(id)", "peer": "\(peer)"])
        return id
    }

    /// A fragment of a message arrived. nil: the connection is unknown; else whether to
    /// go on (`.nothing`) or close with a code.
    mutating func receive(_ id: ConnectionID, _ bytes: UnsafeRawBufferPointer, binary: Bool, final: Bool,
                          remaining: Int, now: UInt64 = now()) -> WriteStep? {
        guard connections.contains(id) else { return nil }
        if binary { return .close(1003, "binary frames are not accepted") }
        switch connections[id]!.assemble(bytes, final: final, remaining: remaining, now: now) {
        case .more: return .nothing
        case .close(let code, let reason): return .close(code, reason)
        case .frame(let frame):
            if let wait = busyRetryAfterMs(id, now: now), let answer = BusyRefusal.answer(to: frame, retryAfterMs: wait) {
                metrics.busyRefusals.increment()
                busyRefusedUnlogged += 1
                let until = max(connections[id]!.busyUntil, now &+ UInt64(wait) * 1_000_000)
                connections[id]!.busyUntil = until
                busyUntilLatest = max(busyUntilLatest, until)
                enqueue(OutboundFrame(answer), to: id)
                return .nothing
            }
            connections[id]!.submit(frame, now: now, &effects)
            backlog.append(now)
            return .nothing
        }
    }

    /// While the engine is behind by more than `busyAfter`: when a refused send should
    /// come back, about as long as the engine is behind, spread so that the retries do
    /// not all return at once. A connection with a send refused is refused until then.
    func busyRetryAfterMs(_ id: ConnectionID, now: UInt64) -> Int? {
        guard busyAfter > 0 else { return nil }
        let waited = backlog.oldestWait(now: now)
        if waited > busyAfter {
            let ms = Int(min(waited, 10_000_000_000) / 1_000_000)
            return Int.random(in: ms...(2 * ms))
        }
        guard busyUntilLatest > now else { return nil }
        let until = connections[id]!.busyUntil
        return until > now ? Int((until - now + 999_999) / 1_000_000) : nil
    }

    /// The socket can take a write: what to write (frames appended to `buffer`, up to
    /// about `budget` bytes), or the close frame once the queue is flushed.
    mutating func writeable(_ id: ConnectionID, into buffer: inout [UInt8], budget: Int) -> WriteStep {
        guard connections.contains(id) else { return .nothing }
        return connections[id]!.writeable(into: &buffer, budget: budget, &effects)
    }

    /// The transport asked lws for this connection's writeable callback itself (a close
    /// frame can only be sent from there).
    mutating func callbackRequested(_ id: ConnectionID) {
        connections[id]?.writeRequested = true
    }

    /// The transport is about to send a close frame: false if one was sent already
    /// (lws may call back once more while a close is under way).
    mutating func closing(_ id: ConnectionID, code: UInt16, reason: String) -> Bool {
        guard connections.contains(id), !connections[id]!.closeSent else { return false }
        connections[id]!.closeSent = true
        // not each of a drain's (the "draining" line counts them)
        if code != 1000 && code != 1001 {
            log.info("ws closing", metadata: ["conn": "\(id)", "code": "\(code)", "reason": "\(reason)"])
        }
        return true
    }

    /// The connection is gone: it leaves every conversation and the engine forgets it.
    mutating func closed(_ id: ConnectionID, now: UInt64 = now()) {
        guard let c = connections[id] else { return }
        for conversation in c.subscriptions { leave(id, conversation) }
        stopPlaying(id, in: nil)  // marks sent before its subscription had caught up
        connections.remove(id)
        if !closingInWave.isEmpty {
            closingInWave.remove(id)
            if awayNext < awayOrder.count { continueSendingAway() }
        }
        metrics.connections.record(connections.count)
        if let u = c.userId {
            userConnections[u]?.remove(id)
            if userConnections[u]?.isEmpty == true { userConnections[u] = nil }
        }
        effects.append(.submit(.closed(id)))
        if let code = c.closeCode, !c.closeSent {
            log.info("ws dropped: close frame not taken", metadata: ["conn": "\(id)", "code": "\(code)"])
        }
        let seconds = (now &- c.openedAt) / 1_000_000_000
        log.info("ws close", metadata: ["conn": "\(id)", "user": "\(c.userId ?? "-")", "seconds": "\(seconds)"])
    }

    /// Closes connections that have not signed in within the time allowed. One whose
    /// auth or register is still waiting in a busy engine is not the client's fault.
    ///
    /// And the keepalive: a connection silent for `keepalive` is pinged, and closed
    /// (4009) if that ping is still unanswered `keepalive` later. (Timed from the ping,
    /// not from the silence: a sweep that runs late must not skip the ping.) lws can do this itself, but lws 4.1 keeps every
    /// connection's timer in one sorted list and walks it on each pong: a cost per pong
    /// that grows with the number of connections (2.4% of the server's cycles with
    /// 6,000, under perf). One pass a second here is linear.
    mutating func sweep(now: UInt64 = now()) {
        if busyRefusedUnlogged > 0 {
            log.warning("sends refused: server busy", metadata: [
                "count": "\(busyRefusedUnlogged)", "oldest_wait_ms": "\(backlog.oldestWait(now: now) / 1_000_000)",
                "busy_after_ms": "\(busyAfter / 1_000_000)"])
            busyRefusedUnlogged = 0
        }
        sweepPlaying(now: now)
        sweepRemotePresence(now: now)
        let limit = UInt64(Limits.authSeconds) * 1_000_000_000
        // The connections holding anything, by address: the sweep visits each anyway, so
        // no table of addresses is kept as connections come and go.
        var queuedByAddress: [String: [(id: ConnectionID, bytes: Int)]] = [:]
        defer { checkAddressBacklogs(queuedByAddress) }
        for id in connections.ids {
            releasedBuffers += connections[id]!.releaseIdleBuffers()
            let c = connections[id]!
            guard c.closeCode == nil else { continue }
            if connections[id]!.checkBacklog(&effects) {
                closedAsSlow(id)
                continue
            }
            if c.queue.bytes > 0 { queuedByAddress[c.address, default: []].append((id, c.queue.bytes)) }
            if c.userId == nil && c.inFlight == 0 && now &- c.openedAt > limit {
                connections[id]!.scheduleClose(4001, "authentication timeout", flush: false, &effects)
                continue
            }
            if c.pingedAt != 0 {
                guard now &- c.pingedAt > keepalive else { continue }
                let silent = (now &- c.heardAt) / 1_000_000_000
                log.info("ws silent", metadata: ["conn": "\(id)", "seconds": "\(silent)"])
                connections[id]!.scheduleClose(4009, "no answer to ping", flush: false, &effects)
            } else if now &- c.heardAt > keepalive {
                connections[id]!.pingedAt = now
                enqueue(.ping, to: id)
            }
        }
    }

    /// An address whose connections held more than `Limits.outboundBytesPerAddress`
    /// together at this sweep and the last: the connection holding most is closed as
    /// a slow consumer (4008), then the next, until the rest hold less. At two sweeps,
    /// like one connection's bound: 32 clients from one address in the chat burst
    /// benchmark passed it for a moment, and one of them, reading, was closed.
    private mutating func checkAddressBacklogs(_ queued: [String: [(id: ConnectionID, bytes: Int)]]) {
        var over: Set<String> = []
        for (address, queues) in queued {
            let total = queues.reduce(0) { $0 + $1.bytes }
            guard total > Limits.outboundBytesPerAddress else { continue }
            over.insert(address)
            guard addressesOverAtSweep.contains(address) else {
                log.notice("address backlog past its bound", metadata: ["peer": "\(address)", "bytes": "\(total)"])
                continue
            }
            var held = total
            for (id, bytes) in queues.sorted(by: { $0.bytes > $1.bytes }) where held > Limits.outboundBytesPerAddress {
                held -= bytes
                connections[id]!.scheduleClose(4008, "slow_consumer", flush: false, &effects)
                closedAsSlow(id)
            }
        }
        addressesOverAtSweep = over
    }

    /// The peer answered a ping.
    mutating func pong(_ id: ConnectionID, now: UInt64 = now()) {
        connections[id]?.heardAt = now
        connections[id]?.pingedAt = 0
    }

    /// Queues a frame for one connection; a reader too far behind is closed (4008), as
    /// is one whose account's connections together hold too much (checked as a queue
    /// passes each 256 KiB, so not on every frame). An address's are checked at the
    /// sweep (`checkAddressBacklogs`).
    mutating func enqueue(_ frame: OutboundFrame, to id: ConnectionID) {
        guard connections.contains(id) else { return }
        switch connections[id]!.enqueue(frame, &effects) {
        case .queued: return
        case .slow: closedAsSlow(id)
        case .passedStep:
            guard let user = connections[id]!.userId, queued(by: userConnections[user]) > Limits.outboundBytesPerUser else { return }
            connections[id]!.scheduleClose(4008, "slow_consumer", flush: false, &effects)
            closedAsSlow(id)
        }
    }

    /// What waits to be written to a set of connections (an account's, an address's).
    func queued(by ids: SmallSet<ConnectionID>?) -> Int {
        var total = 0
        ids?.forEach { total += connections[$0]?.queue.bytes ?? 0 }
        return total
    }

    /// A connection is being closed as a slow consumer (4008): said in the log, counted.
    private mutating func closedAsSlow(_ id: ConnectionID) {
        droppedBacklogs += 1
        log.warning("ws slow consumer", metadata: ["conn": "\(id)"])
        metrics.slowConsumerCloses.increment()
    }
}
