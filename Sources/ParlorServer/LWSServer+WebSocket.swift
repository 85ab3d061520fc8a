import CLibWebSockets
import Foundation
import ParlorCore

/// WebSocket connections: the handshake checks, receiving frames, writing queued ones.
extension LWSServer {
    /// Checks path, subprotocol and Origin before the upgrade; nonzero refuses it.
    func filterUpgrade(_ wsi: OpaquePointer) -> Int32 {
        if isDraining {
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
        let id = makeId()
        setSessionId(user, id)
        var buf = [CChar](repeating: 0, count: 64)
        let peer = lws_get_peer_simple(wsi, &buf, 64).map { String(cString: $0) } ?? "?"
        connections[id] = WebSocketConnection(id: id, wsi: wsi, peer: peer)
        metrics.connections.record(connections.count)
        log.info("ws open", metadata: ["conn": "\(id)", "peer": "\(peer)"])
        return 0
    }

    func received(_ wsi: OpaquePointer, _ user: UnsafeMutableRawPointer?, _ input: UnsafeMutableRawPointer?,
                  _ len: Int) -> Int32 {
        guard let id = sessionId(user), let c = connections[id] else { return -1 }
        if lws_frame_is_binary(wsi) != 0 {
            return close(wsi, c, 1003, "binary frames are not accepted")
        }
        let remaining = Int(lws_remaining_packet_payload(wsi))
        // The cap applies before buffering: once a frame announces more than the cap,
        // nothing more of it is kept. The rest is read and dropped (up to a bound) so the
        // client, done sending, reads the 1009 instead of a reset connection.
        if c.discarded > 0 || c.incoming.count + len + remaining > Limits.frameBytes {
            c.incoming = []
            c.discarded += len
            if lws_is_final_fragment(wsi) != 0 || c.discarded > 4 * Limits.frameBytes {
                return close(wsi, c, 1009, "frames are limited to 64 KiB")
            }
            return 0
        }
        if let input, len > 0 {
            c.incoming.append(contentsOf: UnsafeRawBufferPointer(start: input, count: len))
        }
        if lws_is_final_fragment(wsi) != 0 {
            let frame = c.incoming
            c.incoming = []
            engine?.submit(.frame(id, frame))
            c.inFlight += 1
            c.readAt.append(ServerMetrics.now())
            if c.inFlight >= WebSocketConnection.maxInFlight && !c.readingPaused {
                c.readingPaused = true
                lws_rx_flow_control(wsi, 0)
            }
        }
        return 0
    }

    func writeable(_ wsi: OpaquePointer, _ user: UnsafeMutableRawPointer?) -> Int32 {
        guard let id = sessionId(user), let c = connections[id] else { return 0 }
        c.writeRequested = false
        if let code = c.closeCode, !c.hasQueued { return close(wsi, c, code, c.closeReason) }
        guard c.hasQueued else { return 0 }
        // Several whole frames in one raw write: lws keeps what the kernel did not take
        // and calls back only once it is flushed, so frames never interleave with its
        // own control frames.
        let n = c.drain(into: &scratch, headroom: pre, budget: Self.writeBudget)
        let written = scratch.withUnsafeMutableBufferPointer { parlor_write_raw(wsi, $0.baseAddress! + pre, n) }
        if written < n { return -1 }
        if c.hasQueued || c.closeCode != nil { requestWrite(c) }
        if c.queuedBytes <= WebSocketConnection.replayLowWater && !c.pendingReplays.isEmpty { continueReplays(c) }
        return 0
    }

    /// The queue has drained (nearly: live traffic of other rooms may never let it empty):
    /// ask the engine for the next piece of each waiting replay.
    func continueReplays(_ c: WebSocketConnection) {
        guard c.closeCode == nil else { return }
        for r in c.pendingReplays {
            engine?.submit(.replay(c.id, conversationId: r.conversationId, afterSeq: r.afterSeq, generation: r.generation))
        }
        c.pendingReplays.removeAll()
    }

    func closed(_ user: UnsafeMutableRawPointer?) {
        guard let id = sessionId(user), let c = connections.removeValue(forKey: id) else { return }
        metrics.connections.record(connections.count)
        for conversation in c.subscriptions { leave(c, conversation) }
        if let u = c.userId {
            userConnections[u]?[id] = nil
            if userConnections[u]?.isEmpty == true { userConnections[u] = nil }
        }
        engine?.submit(.closed(id))
        if isDraining { progressDrain() }
        let seconds = (ContinuousClock.now - c.openedAt).components.seconds
        log.info("ws close", metadata: ["conn": "\(id)", "user": "\(c.userId ?? "-")", "seconds": "\(seconds)"])
    }

    /// Sends a close frame with this code now (only from this connection's own callback).
    func close(_ wsi: OpaquePointer, _ c: WebSocketConnection, _ code: UInt16, _ reason: String) -> Int32 {
        // lws may call back once more while the close is under way: say it once.
        if c.closeSent { return -1 }
        c.closeSent = true
        var bytes = Array(reason.utf8.prefix(120))
        lws_close_reason(wsi, lws_close_status(rawValue: UInt32(code)), &bytes, bytes.count)
        if code != 1000 {
            log.info("ws closing", metadata: ["conn": "\(c.id)", "code": "\(code)", "reason": "\(reason)"])
        }
        return -1
    }

    func requestWrite(_ c: WebSocketConnection) {
        guard !c.writeRequested else { return }
        c.writeRequested = true
        lws_callback_on_writable(c.wsi)
    }

    /// Marks a connection for closing once `flush` lets what is queued go out first
    /// (an error reply before a 4001); a slow consumer's backlog is dropped instead.
    func scheduleClose(_ c: WebSocketConnection, _ code: UInt16, _ reason: String, flush: Bool = false) {
        guard c.closeCode == nil else { return }
        c.closeCode = code
        c.closeReason = reason
        if !flush { c.dropQueue() }
        requestWrite(c)
    }

    func enqueue(_ frame: OutboundFrame, to c: WebSocketConnection) {
        if c.enqueue(frame) {
            requestWrite(c)
        } else {
            log.warning("ws slow consumer", metadata: ["conn": "\(c.id)", "queued": "\(c.queuedBytes)"])
            metrics.slowConsumerCloses.increment()
            scheduleClose(c, 4008, "slow_consumer")
        }
    }

    /// Closes connections that have not signed in within the time allowed. One whose
    /// auth or register is still waiting in a busy engine is not the client's fault.
    func sweep() {
        sweepUploads()
        sweepDiscards()
        logRefusals()
        progressDrain()
        let deadline = ContinuousClock.now - .seconds(Limits.authSeconds)
        for c in connections.values
        where c.userId == nil && c.closeCode == nil && c.inFlight == 0 && c.openedAt < deadline {
            scheduleClose(c, 4001, "authentication timeout")
        }
    }
}
