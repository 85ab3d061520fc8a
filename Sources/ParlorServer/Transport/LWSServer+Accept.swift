import CLibWebSockets
import ParlorCore
import Foundation

/// Connection limits at accept time: per client address and for the whole process.
/// lws asks FILTER_NETWORK_CONNECTION right after accept(), then creates the new
/// connection's wsi (WSI_CREATE) before anything else happens on it; WSI_DESTROY ends it.
extension LWSServer {
    func filterNetworkConnection(_ input: UnsafeMutableRawPointer?) -> Int32 {
        if isDraining { return 1 }  // stopping: nobody new
        guard let args = input?.assumingMemoryBound(to: lws_filter_network_conn_args.self) else { return 0 }
        let address = withUnsafePointer(to: &args.pointee.cli_addr) { PeerLimits.address($0, args.pointee.clilen) }
        // A trusted proxy carries many clients: they are counted at the WebSocket
        // handshake by their forwarded address instead (see `admitForwarded`).
        let counted = address.flatMap { config.trustedProxies.contains($0) ? nil : $0 }
        if let address = counted, connectionRate.take(address, now: Self.millisecondsNow()) != nil {
            refusedConnections["rate", default: 0] += 1
            return 1
        }
        if let refusal = peerLimits.admit(counted) {
            refusedConnections[refusal == .server ? "server" : "address", default: 0] += 1
            return 1
        }
        pendingAccept = .some(counted)
        giveUpOnStalledPeer(args.pointee.accept_fd)
        return 0
    }

    /// A peer that takes nothing of what it is sent (a zero window) for twice the
    /// keepalive is dropped by the kernel, as one that says nothing is by the sweep. A
    /// client that sent a frame now and then and never read kept megabytes in the
    /// kernel's send queue for good (an outside review), below every bound counted here.
    func giveUpOnStalledPeer(_ fd: Int32) {
        var ms = UInt32(clamping: config.keepaliveSeconds * 2 * 1000)
        if setsockopt(fd, Int32(IPPROTO_TCP), TCP_USER_TIMEOUT, &ms, socklen_t(MemoryLayout<UInt32>.size)) != 0 {
            log.warning("TCP_USER_TIMEOUT not set", metadata: ["errno": "\(errno)"])
        }
    }

    func wsiCreated(_ wsi: OpaquePointer) {
        guard let pending = pendingAccept else { return }
        pendingAccept = nil
        acceptedPeers[wsi] = pending
    }

    func wsiDestroyed(_ wsi: OpaquePointer) {
        downloads[wsi] = nil  // lws reuses the memory: a later connection must not inherit it
        if let address = acceptedPeers.removeValue(forKey: wsi) { peerLimits.release(address) }
        if let address = forwardedPeers.removeValue(forKey: wsi) { forwardedLimits.release(address) }
    }

    /// The client's address: the peer, or for a trusted proxy the last address it
    /// added to X-Forwarded-For (the one it saw; earlier entries are the client's word).
    func clientAddress(_ wsi: OpaquePointer) -> String {
        var buf = [CChar](repeating: 0, count: 64)
        let peer = PeerLimits.normalized(lws_get_peer_simple(wsi, &buf, 64).map { String(cString: $0) } ?? "?")
        guard config.trustedProxies.contains(peer), let forwarded = header(wsi, WSI_TOKEN_X_FORWARDED_FOR),
              let last = forwarded.split(separator: ",").last?.trimmingCharacters(in: .whitespaces), !last.isEmpty
        else { return peer }
        return PeerLimits.normalized(last)
    }

    /// Counts a WebSocket that came through a trusted proxy against its client's
    /// address; false if that address already holds its share.
    func admitForwarded(_ wsi: OpaquePointer) -> Bool {
        guard acceptedPeers[wsi] == .some(nil) else { return true }  // counted at accept
        let address = clientAddress(wsi)
        guard !config.trustedProxies.contains(address) else { return true }  // a local client
        if connectionRate.take(address, now: Self.millisecondsNow()) != nil {
            refusedConnections["rate", default: 0] += 1
            return false
        }
        if forwardedLimits.admit(address) != nil {
            refusedConnections["address", default: 0] += 1
            return false
        }
        forwardedPeers[wsi] = address
        return true
    }

    /// Refusals are counted and logged once a second, not once each: under a flood the
    /// log must not become the next thing to fill the disk.
    static func millisecondsNow() -> Int { Int(DispatchTime.now().uptimeNanoseconds / 1_000_000) }

    func logRefusals() {
        connectionRate.prune(now: Self.millisecondsNow())
        guard !refusedConnections.isEmpty else { return }
        for (why, n) in refusedConnections.sorted(by: { $0.key < $1.key }) {
            metrics.refusedConnections(why, n)
            log.warning("connections refused", metadata: ["limit": "\(why)", "count": "\(n)", "open": "\(peerLimits.open)"])
        }
        refusedConnections = [:]
    }
}
