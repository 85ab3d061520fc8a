import CLibWebSockets
import ParlorCore

extension LWSServer {
    /// Dispatches one libwebsockets callback. Never throws: errors become -1 (close).
    func callback(_ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                  _ input: UnsafeMutableRawPointer?, _ len: Int) -> Int32 {
        switch reason {
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            if context != nil { drainInbox() }
            progressDrain()
            if isStopping { beginShutdown() }
            return 0
        // Never LWS_CALLBACK_HTTP_CONFIRM_UPGRADE: Debian's 4.1.6 has a use-after-free there.
        case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
            return filterNetworkConnection(user)  // lws 4.1 passes its filter args as `user`
        case LWS_CALLBACK_WSI_CREATE:
            wsiCreated(wsi)
            return 0
        case LWS_CALLBACK_WSI_DESTROY:
            wsiDestroyed(wsi)
            return 0
        case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
            return filterUpgrade(wsi)
        case LWS_CALLBACK_ESTABLISHED:
            return opened(wsi, user)
        case LWS_CALLBACK_RECEIVE:
            return received(wsi, user, input, len)
        case LWS_CALLBACK_RECEIVE_PONG:
            if let id = sessionId(user) { live.pong(id) }
            return 0
        case LWS_CALLBACK_SERVER_WRITEABLE:
            return writeable(wsi, user)
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            // RFC 6455 5.5.1: a close payload is empty or starts with a 2-byte code.
            if len == 1, let id = sessionId(user) { return close(wsi, id, 1002, "bad close frame") }
            return 0
        case LWS_CALLBACK_CLOSED:
            closed(user)
            return 0
        case LWS_CALLBACK_HTTP:
            return httpRequest(wsi, user, input)
        case LWS_CALLBACK_HTTP_BODY:
            return httpBody(user, input, len)
        case LWS_CALLBACK_HTTP_BODY_COMPLETION:
            return httpBodyComplete(wsi, user)
        case LWS_CALLBACK_HTTP_WRITEABLE:
            return httpWriteable(wsi, user)
        case LWS_CALLBACK_HTTP_FILE_COMPLETION:
            downloadFinished(wsi)
            return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
        case LWS_CALLBACK_CLOSED_HTTP:
            httpClosed(user)
            return 0
        case LWS_CALLBACK_RAW_ADOPT:
            // lws turns a CONNECT request into a raw socket, which nothing here serves
            // and no timeout of lws's ever closed: closed at once.
            log.notice("http refused: CONNECT", metadata: ["peer": "\(clientAddress(wsi))"])
            return -1
        default:
            return 0
        }
    }

    /// Reads a header as a String (nil when absent).
    func header(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> String? {
        let n = Int(lws_hdr_total_length(wsi, token))
        guard n > 0, n < 8192 else { return nil }
        var buf = [CChar](repeating: 0, count: n + 1)
        guard lws_hdr_copy(wsi, &buf, Int32(n + 1), token) >= 0 else { return nil }
        return String(cString: buf)
    }

    func sessionId(_ user: UnsafeMutableRawPointer?) -> UInt64? {
        guard let user else { return nil }
        let id = user.load(as: UInt64.self)
        return id == 0 ? nil : id
    }

    func setSessionId(_ user: UnsafeMutableRawPointer?, _ id: UInt64) {
        user?.storeBytes(of: id, as: UInt64.self)
    }
}
