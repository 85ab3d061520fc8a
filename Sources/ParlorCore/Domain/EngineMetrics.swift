import Metrics

/// What the engine counts, through swift-metrics (Prometheus in `parlor serve`). Counted
/// per batch and published only once the batch committed: a rolled-back batch stored no
/// message, and its requests count as `internal`.
struct EngineMetrics {
    private var requests: [String: Counter] = [:]
    private let messages = Counter(label: "parlor_messages_stored_total")
    private let batchSize = Recorder(label: "parlor_engine_batch_size", aggregate: true)
    private let queueDepth = Gauge(label: "parlor_engine_queue_depth")
    private let batchSeconds = Timer(label: "parlor_engine_batch_seconds")

    /// This batch's counts so far.
    var pendingRequests: [String: Int] = [:]
    var pendingMessages = 0

    mutating func request(_ type: String, _ outcome: String) {
        pendingRequests[type + "\u{0}" + outcome, default: 0] += 1
    }

    mutating func batch(size: Int, queued: Int, nanoseconds: Int64, committed: Bool) {
        batchSize.record(size)
        queueDepth.record(queued)
        batchSeconds.recordNanoseconds(nanoseconds)
        defer { pendingRequests = [:]; pendingMessages = 0 }
        if committed { messages.increment(by: pendingMessages) }
        for (key, n) in pendingRequests {
            let parts = key.split(separator: "\u{0}", maxSplits: 1).map(String.init)
            let outcome = committed || parts[1] != "ok" ? parts[1] : "internal"
            let name = parts[0] + "\u{0}" + outcome
            let counter = requests[name] ?? Counter(label: "parlor_requests_total",
                                                    dimensions: [("type", parts[0]), ("outcome", outcome)])
            requests[name] = counter
            counter.increment(by: n)
        }
    }
}
