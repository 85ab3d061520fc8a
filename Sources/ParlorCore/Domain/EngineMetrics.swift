import Metrics

/// What the engine counts, through swift-metrics (Prometheus in `parlor serve`). Counted
/// per batch and published only once the batch committed: a rolled-back batch stored no
/// message, and its requests count as `internal`.
struct EngineMetrics {
    struct RequestKey: Hashable {
        var type: String
        var outcome: String
    }

    private var requests: [RequestKey: Counter] = [:]
    private let messages = Counter(label: "parlor_messages_stored_total")
    private let batchSize = Recorder(label: "parlor_engine_batch_size", aggregate: true)
    private let queueDepth = Gauge(label: "parlor_engine_queue_depth")
    private let batchSeconds = Timer(label: "parlor_engine_batch_seconds")

    /// This batch's counts so far.
    var pendingRequests: [RequestKey: Int] = [:]
    var pendingMessages = 0

    mutating func request(_ type: String, _ outcome: String) {
        pendingRequests[RequestKey(type: type, outcome: outcome), default: 0] += 1
    }

    /// The batch is run again: its first run's counts are not kept.
    mutating func discardPending() {
        pendingRequests = [:]
        pendingMessages = 0
    }

    mutating func batch(size: Int, queued: Int, nanoseconds: Int64, committed: Bool) {
        batchSize.record(size)
        queueDepth.record(queued)
        batchSeconds.recordNanoseconds(nanoseconds)
        defer { pendingRequests = [:]; pendingMessages = 0 }
        if committed { messages.increment(by: pendingMessages) }
        for (var key, n) in pendingRequests {
            if !committed && key.outcome == "ok" { key.outcome = "internal" }
            let counter = requests[key] ?? Counter(label: "parlor_requests_total",
                                                   dimensions: [("type", key.type), ("outcome", key.outcome)])
            requests[key] = counter
            counter.increment(by: n)
        }
    }
}
