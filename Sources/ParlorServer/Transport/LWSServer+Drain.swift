import CLibWebSockets
import Foundation

/// A graceful stop (SIGTERM, SIGINT): no new connections, nothing more read, every
/// request already read answered by the engine and written, then each WebSocket closed
/// with 1001 (going away), so clients know to come back rather than seeing a crash.
extension LWSServer {
    /// Called on the service thread when the loop wakes and on every sweep.
    func progressDrain() {
        guard isDraining, context != nil else { return }
        live.drain()
        applyLiveEffects()
        if live.connections.isEmpty && uploads.isEmpty { signalDrained() }
    }
}
