/// When each frame handed to the engine and not answered yet was read, oldest first.
/// The engine answers frames in the order it was given them, so answers remove from
/// the front, and the first is the one that has waited longest.
struct Backlog {
    private var readAt: [UInt64] = []
    private var head = 0

    var count: Int { readAt.count - head }

    mutating func append(_ now: UInt64) { readAt.append(now) }

    /// The engine answered the `n` oldest.
    mutating func answered(_ n: Int) {
        head = min(head + n, readAt.count)
        if head == readAt.count {
            readAt.removeAll(keepingCapacity: readAt.capacity <= 4096)
            head = 0
        } else if head >= 4096 {
            readAt.removeFirst(head)
            head = 0
        }
    }

    /// Nanoseconds the oldest has waited; 0 when the engine is not behind.
    func oldestWait(now: UInt64) -> UInt64 { head < readAt.count ? now &- readAt[head] : 0 }
}
