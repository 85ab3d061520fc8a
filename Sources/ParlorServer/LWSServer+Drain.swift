import CLibWebSockets
import Foundation

/// A graceful stop (SIGTERM, SIGINT): no new connections, nothing more read, every
/// request already read answered by the engine and written, then each WebSocket closed
/// with 1001 (going away), so clients know to come back rather than seeing a crash.
extension LWSServer {
    /// Called on the service thread when the loop wakes and on every sweep.
    func progressDrain() {
        guard isDraining, context != nil else { return }
        if !drainBegun {
            drainBegun = true
            log.info("draining", metadata: ["connections": "\(connections.count)"])
            for c in connections.values where !c.readingPaused {
                c.readingPaused = true
                lws_rx_flow_control(c.wsi, 0)
            }
        }
        // Answers first: a connection closes once the engine has answered all it read.
        for c in connections.values where c.inFlight == 0 && c.closeCode == nil {
            c.pendingReplays.removeAll()
            scheduleClose(c, 1001, "server shutting down", flush: true)
        }
        if connections.isEmpty && uploads.isEmpty { signalDrained() }
    }
}
