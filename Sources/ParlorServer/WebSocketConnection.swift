import ParlorCore

/// One WebSocket connection, owned by the service thread.
final class WebSocketConnection {
    let id: ConnectionID
    let wsi: OpaquePointer
    let peer: String
    let openedAt: ContinuousClock.Instant
    var userId: String?
    var subscriptions: Set<String> = []

    /// Frames waiting for the socket to be writeable, oldest first.
    private(set) var queue: [OutboundFrame] = []
    private var head = 0
    private(set) var queuedBytes = 0
    var writeRequested = false

    /// Set when the connection must be closed at its next writeable callback.
    var closeCode: UInt16?
    var closeReason = ""
    var closeSent = false

    /// The text message being received, across fragments.
    var incoming: [UInt8] = []
    /// Bytes of an oversized frame read and dropped so far.
    var discarded = 0

    /// Frames handed to the engine and not yet answered; past a limit the connection
    /// stops being read, so one client cannot flood the engine or grow its inbox.
    var inFlight = 0
    var readingPaused = false
    /// When each frame still with the engine was read, oldest first (ack latency).
    var readAt: [UInt64] = []
    /// Resume replays waiting for this connection's queue to drain before their next piece.
    var pendingReplays: [(conversationId: String, afterSeq: Int, generation: Int)] = []
    /// A replay's next piece is asked for once no more than this is waiting to be written.
    static let replayLowWater = 64 * 1024
    static let maxInFlight = 64

    init(id: ConnectionID, wsi: OpaquePointer, peer: String) {
        self.id = id
        self.wsi = wsi
        self.peer = peer
        openedAt = .now
    }

    var hasQueued: Bool { head < queue.count }

    /// Queues a frame; false if the connection is too far behind to keep.
    func enqueue(_ frame: OutboundFrame) -> Bool {
        guard closeCode == nil else { return true }
        if queue.count - head >= Limits.outboundFrames || queuedBytes + frame.wireCount > Limits.outboundBytes {
            return false
        }
        queue.append(frame)
        queuedBytes += frame.wireCount
        return true
    }

    /// Copies whole frames, oldest first, into `buffer` (after `headroom` bytes) up to
    /// about `budget` bytes; always at least one frame. Returns the bytes copied.
    func drain(into buffer: inout [UInt8], headroom: Int, budget: Int) -> Int {
        var total = 0
        buffer.removeSubrange(headroom...)
        while head < queue.count {
            let f = queue[head]
            if total > 0 && total + f.wireCount > budget { break }
            buffer.append(contentsOf: f.storage[OutboundFrame.headroom...])
            total += f.wireCount
            queuedBytes -= f.wireCount
            head += 1
        }
        if head == queue.count {
            queue.removeAll(keepingCapacity: queue.capacity <= 64)
            head = 0
        } else if head > 1024 {
            queue.removeFirst(head)
            head = 0
        }
        return total
    }

    func dropQueue() {
        queue.removeAll()
        head = 0
        queuedBytes = 0
    }
}
