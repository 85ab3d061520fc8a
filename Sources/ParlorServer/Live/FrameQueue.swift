import ParlorCore

/// One connection's frames waiting for its socket, oldest first, with the bounds that
/// make a slow reader a slow consumer rather than a memory leak.
struct FrameQueue {
    private var frames: [OutboundFrame] = []
    private var head = 0
    private(set) var bytes = 0

    var isEmpty: Bool { head == frames.count }
    var count: Int { frames.count - head }

    /// Past the slow-consumer bound (`Limits.outboundFrames`, `outboundBytes`) for more
    /// than a moment, or past twice it at all.
    var isOverBound: Bool { count > Limits.outboundFrames || bytes > Limits.outboundBytes }

    /// Queues a frame; false if the reader is too far behind to keep (twice the bound).
    mutating func push(_ frame: OutboundFrame) -> Bool {
        if count >= 2 * Limits.outboundFrames || bytes + frame.wireCount > 2 * Limits.outboundBytes {
            return false
        }
        frames.append(frame)
        bytes += frame.wireCount
        return true
    }

    /// Appends whole frames, oldest first, to `buffer` up to about `budget` bytes;
    /// always at least one frame. Returns the bytes appended.
    mutating func pop(into buffer: inout [UInt8], budget: Int) -> Int {
        var total = 0
        // Read in place rather than copied out (`let f = frames[head]`): retains and
        // releases of shared payloads were 12 % of a chat burst's CPU (perf).
        frames.withUnsafeBufferPointer { queued in
            while head < queued.count {
                let n = queued[head].wireCount
                if total > 0 && total + n > budget { break }
                queued[head].append(to: &buffer)
                total += n
                head += 1
            }
        }
        bytes -= total
        if head == frames.count {
            frames.removeAll(keepingCapacity: frames.capacity <= 64)
            head = 0
        } else if head > 1024 {
            frames.removeFirst(head)
            head = 0
        }
        return total
    }

    var hasStorage: Bool { frames.capacity > 0 }

    /// Drops the empty queue's storage (kept by `pop` for the next write); true if
    /// there was some.
    mutating func releaseIfEmpty() -> Bool {
        guard isEmpty && hasStorage else { return false }
        removeAll()
        return true
    }

    mutating func removeAll() {
        frames.removeAll()
        head = 0
        bytes = 0
    }
}
