import ParlorCore

/// What the live state knows of one WebSocket connection. A value: the transport
/// keeps its socket, the live state keeps this, keyed by the same id.
struct LiveConnection {
    // Declared in this order so that the small fields share words (Swift lays fields
    // out as declared): one of these per connection in `ConnectionTable`'s slab, idle
    // or not, 160 bytes (IdleMemoryTests).
    let id: ConnectionID
    /// Uptime nanoseconds (see `LiveState.now`).
    let openedAt: UInt64
    /// When the peer was last heard from (a frame or a pong), and when a ping still
    /// unanswered was sent (`pingedAt`, below): the keepalive (`LiveState.sweep`).
    var heardAt: UInt64
    var userId: String?
    /// The client's address (behind a trusted proxy, the one it forwarded): an IPv4
    /// address is stored in the string itself.
    let address: String
    var queue = FrameQueue()

    /// Set with `closeCode` when the connection must be closed at its next writeable callback.
    var closeReason = ""

    /// The text message being received, across fragments.
    var incoming: [UInt8] = []
    /// When each frame still with the engine was read, oldest first (ack latency).
    var readAt: [UInt64] = []
    /// Resume replays waiting for this connection's queue to drain before their next piece.
    var pendingReplays: [(conversationId: String, afterSeq: Int, generation: Int)] = []
    /// Bytes of an oversized frame read and dropped so far (at most 4 frames' worth).
    var discarded: Int32 = 0
    /// Frames handed to the engine and not yet answered; past a limit the connection
    /// stops being read, so one client cannot flood the engine or grow its inbox.
    var inFlight: Int16 = 0
    /// Far behind on what it is sent (`readBehindFrames`): not read until it catches up,
    /// so a client that sends and does not read slows down instead of being closed as a
    /// slow consumer for the replies and echoes of its own burst.
    var sendingBehind = false
    /// Past the slow-consumer bound at the last sweep (`checkBacklog`). (These two Bools
    /// and the two fields above fill one word.)
    var overBoundAtSweep = false
    /// After a send was refused as `server_busy`: until when this connection's later
    /// sends are refused too, so that none read meanwhile is stored ahead of the one
    /// the client sends again then (the outbox holds every later one and sends them
    /// after it, in order).
    var busyUntil: UInt64 = 0

    /// 8 bytes and a tag, which the 2-byte-aligned fields below fill up to the word.
    var subscriptions = SmallSet<String>()
    var closeCode: UInt16?
    var closeSent = false
    var readingPaused = false
    /// A writeable callback is already asked for; asking again costs a syscall.
    var writeRequested = false
    /// 0 when no ping is unanswered (a ping goes out only past the keepalive, so never
    /// at 0): a plain word, where an optional's tag took 8 more bytes of the struct.
    var pingedAt: UInt64 = 0

    /// A replay's next piece is asked for once no more than this is waiting to be written.
    static let replayLowWater = 64 * 1024
    static let maxInFlight: Int16 = 64
    /// Reading stops past these (a quarter of the slow-consumer bound, `Limits`) and goes
    /// on once the queue is down to a quarter of them.
    static let readBehindFrames = Limits.outboundFrames / 4
    static let readBehindBytes = Limits.outboundBytes / 4
    /// 256 KiB: between two checks each connection of an account may grow by this
    /// much, so 64 of them pass the account's bound by at most 16 MiB.
    static let checkStepShift = 18

    init(id: ConnectionID, openedAt: UInt64, address: String) {
        self.id = id
        self.openedAt = openedAt
        self.address = address
        heardAt = openedAt
    }
}

/// What happens to one connection, in place: each records its effects in `fx`.
extension LiveConnection {
    mutating func requestWrite(_ fx: inout [LiveEffect]) {
        guard !writeRequested else { return }
        writeRequested = true
        fx.append(.requestWrite(id))
    }

    /// Marks the connection for closing once `flush` lets what is queued go out first
    /// (an error reply before a 4001); a slow consumer's backlog is dropped instead.
    mutating func scheduleClose(_ code: UInt16, _ reason: String, flush: Bool, _ fx: inout [LiveEffect]) {
        guard closeCode == nil else { return }
        closeCode = code
        closeReason = reason
        if !flush { queue.removeAll() }
        fx.append(.closeWithin(id))
        requestWrite(&fx)
    }

    enum Enqueued {
        case queued
        /// Queued, and the queue has passed another 256 KiB: time to look at what its
        /// account's connections hold together.
        case passedStep
        /// Too far behind: being closed as a slow consumer.
        case slow
    }

    /// Queues a frame, unless this reader is too far behind (it is then being closed).
    mutating func enqueue(_ frame: OutboundFrame, _ fx: inout [LiveEffect]) -> Enqueued {
        guard closeCode == nil else { return .queued }
        let before = queue.bytes
        guard queue.push(frame) else {
            scheduleClose(4008, "slow_consumer", flush: false, &fx)
            return .slow
        }
        if !sendingBehind && (queue.count > Self.readBehindFrames || queue.bytes > Self.readBehindBytes) {
            sendingBehind = true
            if !readingPaused { fx.append(.setReading(id, false)) }
        }
        requestWrite(&fx)
        return queue.bytes >> Self.checkStepShift > before >> Self.checkStepShift ? .passedStep : .queued
    }

    /// At the sweep (once a second): past the slow-consumer bound now and at the last
    /// sweep, the connection is closed with 4008 and its backlog dropped; true then. A
    /// burst its client reads within a second passes.
    mutating func checkBacklog(_ fx: inout [LiveEffect]) -> Bool {
        let over = queue.isOverBound
        defer { overBoundAtSweep = over }
        guard over && overBoundAtSweep else { return false }
        scheduleClose(4008, "slow_consumer", flush: false, &fx)
        return true
    }

    /// What a fragment of a text message made: nothing yet, the whole message, or a close.
    enum Assembled {
        case more
        case frame([UInt8])
        case close(UInt16, String)
    }

    /// A fragment of a text message arrived: kept, or the whole message returned;
    /// `.close` when it breaks the size cap.
    mutating func assemble(_ bytes: UnsafeRawBufferPointer, final: Bool, remaining: Int, now: UInt64) -> Assembled {
        heardAt = now
        pingedAt = 0
        // The cap applies before buffering: once a frame announces more than the cap,
        // nothing more of it is kept. The rest is read and dropped (up to a bound) so
        // the client, done sending, reads the 1009 instead of a reset connection.
        if discarded > 0 || incoming.count + bytes.count + remaining > Limits.frameBytes {
            incoming = []
            discarded += Int32(bytes.count)
            if final || Int(discarded) > 4 * Limits.frameBytes { return .close(1009, "frames are limited to 64 KiB") }
            return .more
        }
        incoming.append(contentsOf: bytes)
        guard final else { return .more }
        defer { incoming = [] }
        return .frame(incoming)
    }

    /// Hands a whole message to the engine; reading pauses while too many wait.
    mutating func submit(_ frame: [UInt8], now: UInt64, _ fx: inout [LiveEffect]) {
        fx.append(.submit(.frame(id, frame)))
        inFlight += 1
        readAt.append(now)
        if inFlight >= Self.maxInFlight && !readingPaused {
            readingPaused = true
            if !sendingBehind { fx.append(.setReading(id, false)) }
        }
    }

    /// The socket can take a write: frames appended to `buffer`, or the close frame
    /// once the queue is flushed.
    mutating func writeable(into buffer: inout [UInt8], budget: Int, _ fx: inout [LiveEffect]) -> WriteStep {
        writeRequested = false
        if let code = closeCode, queue.isEmpty { return .close(code, closeReason) }
        guard !queue.isEmpty else { return .nothing }
        // Several whole frames in one raw write: lws keeps what the kernel did not take
        // and calls back only once it is flushed, so frames never interleave with its
        // own control frames.
        let n = queue.pop(into: &buffer, budget: budget)
        if sendingBehind && queue.count <= Self.readBehindFrames / 4 && queue.bytes <= Self.readBehindBytes / 4 {
            sendingBehind = false
            if !readingPaused { fx.append(.setReading(id, true)) }
        }
        if !queue.isEmpty || closeCode != nil { requestWrite(&fx) }
        if queue.bytes <= Self.replayLowWater { continueReplays(&fx) }
        return .write(n)
    }

    /// Gives back what an idle connection keeps for nothing (the sweep, once a second):
    /// a busy connection keeps its buffers from one write to the next, and an idle one
    /// would otherwise hold its largest burst's for good (about 250 bytes each, measured).
    /// Returns how many buffers it gave back.
    mutating func releaseIdleBuffers() -> Int {
        var n = queue.releaseIfEmpty() ? 1 : 0
        if readAt.isEmpty && readAt.capacity > 0 {
            readAt = []
            n += 1
        }
        return n
    }

    /// The queue has drained (nearly: live traffic of other rooms may never let it
    /// empty): ask the engine for the next piece of each waiting replay.
    mutating func continueReplays(_ fx: inout [LiveEffect]) {
        guard closeCode == nil, !pendingReplays.isEmpty else { return }
        for r in pendingReplays {
            fx.append(.submit(.replay(id, conversationId: r.conversationId, afterSeq: r.afterSeq, generation: r.generation)))
        }
        pendingReplays.removeAll()
    }

    /// The engine answered `count` frames: resume reading once half the window is free.
    mutating func processed(_ count: Int, now: UInt64, draining: Bool, latency: (UInt64) -> Void,
                            _ fx: inout [LiveEffect]) {
        inFlight -= Int16(clamping: count)
        for t in readAt.prefix(count) { latency(now &- t) }
        readAt.removeFirst(min(count, readAt.count))
        if readingPaused && inFlight <= Self.maxInFlight / 2 && !draining {
            readingPaused = false
            if !sendingBehind { fx.append(.setReading(id, true)) }
        }
    }
}
