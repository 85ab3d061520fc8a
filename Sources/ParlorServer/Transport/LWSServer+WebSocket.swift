import CLibWebSockets
import Foundation
import ParlorCore

/// The WebSocket shell: handshake checks here; what a connection's callbacks mean is
/// decided by the live state (Live/), whose effects are performed here.
extension LWSServer {
    /// Checks path, subprotocol and Origin before the upgrade; nonzero refuses it.
    func filterUpgrade(_ wsi: OpaquePointer) -> Int32 {
        // stopping, or cut off from the cluster's database: another node serves
        if isDraining || databaseLost {
            _ = lws_return_http_status(wsi, 503, nil)
            return -1
        }
        let path = header(wsi, WSI_TOKEN_GET_URI) ?? ""
        let isParlor = lws_get_protocol(wsi).map { String(cString: $0.pointee.name) == "parlor.v1" } ?? false
        guard path == "/ws", isParlor else {
            log.info("ws refused: path or subprotocol", metadata: ["path": "\(path.prefix(64))"])
            _ = lws_return_http_status(wsi, 400, nil)
            return -1
        }
        let origin = header(wsi, WSI_TOKEN_ORIGIN)
        if isAppsHost(wsi) || origin.map({ !originAllowed($0, host: header(wsi, WSI_TOKEN_HOST)) }) ?? false {
            log.notice("ws refused: origin not allowed", metadata: ["origin": "\(origin?.prefix(100) ?? "-")"])
            _ = lws_return_http_status(wsi, 403, nil)
            return -1
        }
        guard admitForwarded(wsi) else {
            _ = lws_return_http_status(wsi, 429, nil)
            return -1
        }
        return 0
    }

    /// The page's own origin, with the scheme this server is reached by (https only on
    /// the TLS port; behind a TLS proxy a plain port sees https origins too), or one
    /// configured. Never the apps origin: app code must not reach the socket.
    func originAllowed(_ origin: String, host: String?) -> Bool {
        let o = origin.lowercased()
        if let apps = config.appsOrigin, o == apps.lowercased().trimmingCharacters(in: ["/"]) { return false }
        if (config.allowedOrigins + config.publicOrigins).contains(where: { $0.lowercased() == o }) { return true }
        guard let host = host?.lowercased() else { return false }
        if config.tlsCertificate != nil { return o == "https://\(host)" }
        return o == "http://\(host)" || o == "https://\(host)"
    }

    func opened(_ wsi: OpaquePointer, _ user: UnsafeMutableRawPointer?) -> Int32 {
        let id = live.open(peer: clientAddress(wsi))
        setSessionId(user, id)
        sockets.set(id, wsi)
        applyLiveEffects()
        return 0
    }

    func received(_ wsi: OpaquePointer, _ user: UnsafeMutableRawPointer?, _ input: UnsafeMutableRawPointer?,
                  _ len: Int) -> Int32 {
        guard let id = sessionId(user) else { return -1 }
        let bytes = UnsafeRawBufferPointer(start: len > 0 ? input : nil, count: len)
        let step = live.receive(id, bytes, binary: lws_frame_is_binary(wsi) != 0, final: lws_is_final_fragment(wsi) != 0,
                                remaining: Int(lws_remaining_packet_payload(wsi)))
        applyLiveEffects()
        switch step {
        case nil: return -1
        case .close(let code, let reason)?: return close(wsi, id, code, reason)
        default: return 0
        }
    }

    func writeable(_ wsi: OpaquePointer, _ user: UnsafeMutableRawPointer?) -> Int32 {
        guard let id = sessionId(user) else { return 0 }
        scratch.removeSubrange(pre...)
        let step = live.writeable(id, into: &scratch, budget: Self.writeBudget)
        var result: Int32 = 0
        switch step {
        case .nothing: break
        case .close(let code, let reason): result = close(wsi, id, code, reason)
        case .write(let n):
            let written = scratch.withUnsafeMutableBufferPointer { parlor_write_raw(wsi, $0.baseAddress! + pre, n) }
            if written < n { result = -1 }
        }
        applyLiveEffects()
        return result
    }

    func closed(_ user: UnsafeMutableRawPointer?) {
        guard let id = sessionId(user), sockets.remove(id) else { return }
        live.closed(id)
        applyLiveEffects()
        if isDraining { progressDrain() }
    }

    /// Sends a close frame with this code now (only from this connection's own callback).
    func close(_ wsi: OpaquePointer, _ id: ConnectionID, _ code: UInt16, _ reason: String) -> Int32 {
        guard live.closing(id, code: code, reason: reason) else { return -1 }
        var bytes = Array(reason.utf8.prefix(120))
        lws_close_reason(wsi, lws_close_status(rawValue: UInt32(code)), &bytes, bytes.count)
        return -1
    }

    /// Performs what the live state asked for, in order, until it asks for nothing more
    /// (a write can ask for the next one).
    func applyLiveEffects() {
        while true {
            live.takeEffects(into: &effectBuffer)
            if effectBuffer.isEmpty { return }
            for effect in effectBuffer {
                switch effect {
                case .requestWrite(let id):
                    guard let wsi = sockets[id] else { continue }
                    // Nothing of this socket's is waiting in lws: write now instead of
                    // asking for a writeable callback, which costs an epoll_ctl to arm
                    // and one to disarm, and a loop turn. lws keeps what the kernel does
                    // not take and arms POLLOUT itself; only a backed-up socket waits.
                    if directWrites && lws_partial_buffered(wsi) == 0 {
                        writeNow(wsi, id)
                    } else {
                        lws_callback_on_writable(wsi)
                    }
                case .closeWithin(let id):
                    // The close frame waits behind what lws holds, which a peer that
                    // stopped reading never takes: lws drops the socket at the deadline
                    // (and forgets it once the close frame is sent, for its own wait).
                    // In a drain too: a stuck reader would otherwise hold one of the
                    // closes it lets run at once (LiveState+ClosingAll.swift) until its end.
                    if let wsi = sockets[id] { parlor_close_within(wsi, Limits.closeGraceSeconds) }
                case .setReading(let id, let on):
                    if let wsi = sockets[id] { lws_rx_flow_control(wsi, on ? 1 : 0) }
                case .submit(let input):
                    engine?.submit(input)
                case .publishPresence(let state):
                    publishPresence?(state)
                }
            }
        }
    }

    /// Writes are made outside a socket's own writeable callback only while the loop
    /// runs normally: never while lws is tearing connections down.
    var directWrites: Bool { !shutdownBegun && !isStopping }

    /// A write outside the socket's own callback: frames only; a close frame is sent
    /// from the connection's callback, so that one is asked for.
    private func writeNow(_ wsi: OpaquePointer, _ id: ConnectionID) {
        scratch.removeSubrange(pre...)
        switch live.writeable(id, into: &scratch, budget: Self.writeBudget) {
        case .nothing: break
        case .close:
            live.callbackRequested(id)
            lws_callback_on_writable(wsi)
        case .write(let n):
            let written = scratch.withUnsafeMutableBufferPointer { parlor_write_raw(wsi, $0.baseAddress! + pre, n) }
            if written < 0 { parlor_kill_async(wsi) }
        }
    }

    /// Once a second: sign-in deadlines, upload deadlines, refusal logs, the drain.
    func sweep() {
        sweepUploads()
        sweepDownloads()
        sweepDiscards()
        logRefusals()
        LibWebSocketsLog.flushSuppressed()
        progressDrain()
        live.sweep()
        trimHeapAfterReleases()
        applyLiveEffects()
        engine?.submit(.sweep)
    }

    /// The buffers the sweep gave back after a burst (thousands of connections' queues
    /// once they went quiet) lie between live blocks, where free() keeps them: about
    /// 200 bytes per idle connection in bench/run's idle scenario. malloc_trim returns
    /// those pages; it walks the heap's free lists, so only once 1,024 buffers were
    /// given back since the last trim (0.1-1 ms a trim there), or a slow consumer's
    /// backlog was dropped (megabytes: without a trim a flood of them kept the server's
    /// memory at its peak for good).
    func trimHeapAfterReleases() {
        guard live.releasedBuffers >= Self.trimAfterReleases || live.droppedBacklogs > 0 else { return }
        let released = live.releasedBuffers
        live.releasedBuffers = 0
        live.droppedBacklogs = 0
        let start = LiveState.now()
        parlor_trim_heap()
        let ms = String(format: "%.1f", Double(LiveState.now() &- start) / 1e6)
        log.info("heap trimmed", metadata: ["released": "\(released)", "ms": "\(ms)"])
    }

    static let trimAfterReleases = 1024
}
