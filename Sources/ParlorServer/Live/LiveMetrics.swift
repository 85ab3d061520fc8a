import Metrics

/// What the live state counts, through swift-metrics.
struct LiveMetrics {
    let connections = Gauge(label: "parlor_connections")
    let subscriptions = Gauge(label: "parlor_subscriptions")
    let slowConsumerCloses = Counter(label: "parlor_slow_consumer_closes_total")
    /// Sends refused as `server_busy` while the engine was behind (LiveState.busyAfter).
    let busyRefusals = Counter(label: "parlor_busy_refusals_total")
    /// From a request frame read to its answer queued: what a client waits for an ack.
    let ackLatency = Timer(label: "parlor_ack_latency_seconds")
}
