import Dispatch
import Metrics

/// What the service thread counts, through swift-metrics (Prometheus in `parlor serve`).
struct ServerMetrics {
    let connections = Gauge(label: "parlor_connections")
    let subscriptions = Gauge(label: "parlor_subscriptions")
    let pendingResponses = Gauge(label: "parlor_http_pending_responses")
    let uploadsInProgress = Gauge(label: "parlor_uploads_in_progress")
    let slowConsumerCloses = Counter(label: "parlor_slow_consumer_closes_total")
    let blobBytes = Counter(label: "parlor_blob_bytes_stored_total")
    /// From a request frame read to its answer queued: what a client waits for an ack.
    let ackLatency = Timer(label: "parlor_ack_latency_seconds")
    private var refused: [String: Counter] = [:]

    mutating func refusedConnections(_ limit: String, _ n: Int) {
        let c = refused[limit] ?? Counter(label: "parlor_connections_refused_total", dimensions: [("limit", limit)])
        refused[limit] = c
        c.increment(by: n)
    }

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
}
