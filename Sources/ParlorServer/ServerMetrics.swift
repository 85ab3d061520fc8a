import Metrics

/// What the transport and HTTP side count, through swift-metrics (Prometheus in
/// `parlor serve`). The live state counts its own (`LiveMetrics`).
struct ServerMetrics {
    let pendingResponses = Gauge(label: "parlor_http_pending_responses")
    let uploadsInProgress = Gauge(label: "parlor_uploads_in_progress")
    let downloadsInProgress = Gauge(label: "parlor_downloads_in_progress")
    let blobBytes = Counter(label: "parlor_blob_bytes_stored_total")
    private var refused: [String: Counter] = [:]

    mutating func refusedConnections(_ limit: String, _ n: Int) {
        let c = refused[limit] ?? Counter(label: "parlor_connections_refused_total", dimensions: [("limit", limit)])
        refused[limit] = c
        c.increment(by: n)
    }
}
