/// A rate: `count` per `seconds`, with bursts up to `burst` (default `count`).
/// A count of 0 means no limit.
public struct Rate: Equatable, Sendable, CustomStringConvertible {
    public var count: Int
    public var seconds: Int
    public var burst: Int?

    public init(_ count: Int, per seconds: Int, burst: Int? = nil) {
        self.count = count
        self.seconds = seconds
        self.burst = burst
    }

    public static let unlimited = Rate(0, per: 1)
    public var isUnlimited: Bool { count <= 0 || seconds <= 0 }
    var capacity: Double { Double(max(burst ?? count, 1)) }

    /// "COUNT/SECONDS" (e.g. "10/3600"), or "0" for no limit.
    public init?(parsing s: String) {
        if s == "0" { self = .unlimited; return }
        let parts = s.split(separator: "/")
        guard parts.count == 2, let c = Int(parts[0]), let t = Int(parts[1]), c >= 0, t > 0 else { return nil }
        self.init(c, per: t)
    }

    public var description: String { isUnlimited ? "0" : "\(count)/\(seconds)" }
}

/// Token buckets, one per key (an address, a user): each refills at its rate up to its
/// capacity, and a request takes from it or is told how long to wait. Keys whose
/// bucket is full again are forgotten (`prune`), so memory follows the active keys.
public struct RateLimiter {
    public let rate: Rate
    private var buckets: [String: (tokens: Double, at: Int)] = [:]
    /// The buckets the batch being run changed, as they were before it, in order
    /// (`undo`): a batch run again after a failure takes once, not once a run. A log,
    /// not a table: an append costs less than a hash lookup on every take.
    private var undoLog: [(key: String, bucket: (tokens: Double, at: Int)?)] = []

    public init(_ rate: Rate) { self.rate = rate }

    private func level(_ key: String, now: Int) -> Double {
        guard let b = buckets[key] else { return rate.capacity }
        let refill = Double(now - b.at) * Double(rate.count) / Double(rate.seconds * 1000)
        return min(rate.capacity, b.tokens + max(refill, 0))
    }

    /// nil if `cost` may be taken now (and takes it), else milliseconds until it may.
    public mutating func take(_ key: String, cost: Double = 1, now: Int) -> Int? {
        if let wait = wait(key, cost: cost, now: now) { return wait }
        guard !rate.isUnlimited else { return nil }
        set(key, level(key, now: now) - cost, now)
        return nil
    }

    /// Takes `cost` whatever is left, into debt: for a cost known only once the work is
    /// done (the bytes of an answer), after `wait` said there was room for a little.
    public mutating func charge(_ key: String, cost: Double, now: Int) {
        guard !rate.isUnlimited else { return }
        set(key, level(key, now: now) - cost, now)
    }

    private mutating func set(_ key: String, _ tokens: Double, _ now: Int) {
        undoLog.append((key, buckets.updateValue((tokens, now), forKey: key)))
    }

    /// The batch committed: what it took stays taken.
    public mutating func commit() {
        if !undoLog.isEmpty { undoLog.removeAll(keepingCapacity: true) }
    }

    /// The batch was undone: its takes are given back, newest first.
    public mutating func undo() {
        for (key, bucket) in undoLog.reversed() { buckets[key] = bucket }
        undoLog.removeAll(keepingCapacity: true)
    }

    /// How long until `cost` could be taken, without taking it; nil if it could now.
    func wait(_ key: String, cost: Double = 1, now: Int) -> Int? {
        guard !rate.isUnlimited else { return nil }
        let have = level(key, now: now)
        // More than a full bucket never fits: come back after a whole window.
        guard cost <= rate.capacity else { return rate.seconds * 1000 }
        guard have < cost else { return nil }
        // Less a hair, so float error does not add a millisecond; at least one.
        return max(1, Int(((cost - have) * Double(rate.seconds * 1000) / Double(rate.count) - 1e-6).rounded(.up)))
    }

    public mutating func prune(now: Int) {
        buckets = buckets.filter { level($0.key, now: now) < rate.capacity }
    }
}
