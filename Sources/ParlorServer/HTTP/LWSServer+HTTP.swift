import CLibWebSockets
import Foundation
import ParlorCore

/// Plain HTTP: the health check, the client's configuration, image blobs and the files
/// of `Public/`. Uploads are in LWSServer+Uploads.swift.
extension LWSServer {
    func httpRequest(_ wsi: OpaquePointer, _ user: UnsafeMutableRawPointer?, _ input: UnsafeMutableRawPointer?) -> Int32 {
        // HTTP/2 is not served: lws 4.1 accepts an `Upgrade: h2c` whatever the ALPN says,
        // and one connection's streams each held a file open, past the limits counted
        // per connection. Its first request drops the whole connection.
        if let network = lws_get_network_wsi(wsi), network != wsi {
            log.notice("http refused: HTTP/2", metadata: ["peer": "\(clientAddress(wsi))"])
            parlor_kill_async(network)
            return -1
        }
        downloadFinished(wsi)  // a new request on a connection: what it sent before is over
        let path = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "/"
        let id = makeId()
        setSessionId(user, id)
        let isPost = lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI) > 0
        let isGet = lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) > 0 || isHead(wsi)
        // No body here is sent chunked. lws frames a body by its Content-Length alone,
        // so with both headers what a proxy read as one chunked request was two here,
        // the second unseen by the proxy (RFC 9112 §6.3): refused, and the connection closed.
        if lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_TRANSFER_ENCODING) > 0 {
            log.notice("http refused: transfer-encoding", metadata: ["peer": "\(clientAddress(wsi))"])
            return respondError(wsi, id, 400, "bad_request", "Transfer-Encoding is not accepted: send a Content-Length", close: true)
        }

        // Only an upload has a body. lws reads any other request's and restarts its
        // timeout on each piece, so a GET announcing a terabyte and trickling it held its
        // connection (and an address's slot) for good.
        if !isPost, let length = header(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH), length != "0" {
            log.notice("http refused: body on a request without one", metadata: ["peer": "\(clientAddress(wsi))"])
            return respondError(wsi, id, 400, "bad_request", "only an upload (POST) has a body", close: true)
        }

        if isAppsHost(wsi) {
            // The apps origin serves the apps and their SDK, nothing of the host's.
            guard isGet, let file = files.resolve(path, host: header(wsi, WSI_TOKEN_HOST)), file.area == "apps" || file.area == "sdk" else {
                return respondError(wsi, id, 404, "not_found", "only apps are served here")
            }
            return serveStatic(wsi, id, file)
        }
        if isPost { return beginUpload(wsi, id, path) }
        guard isGet else { return respondError(wsi, id, 405, "method_not_allowed", "only GET, HEAD and POST are served") }

        if path == "/health" { return checkHealth(wsi, id) }
        if path == "/metrics", let render = renderMetrics {
            // Operators only: from this machine, not through the proxy.
            guard isLocalDirect(wsi) else { return respondError(wsi, id, 404, "not_found", "no such file") }
            metrics.pendingResponses.record(exchanges.count)
            metrics.uploadsInProgress.record(uploads.count)
            metrics.downloadsInProgress.record(downloads.count)
            respond(wsi, id, status: 200, type: "text/plain; version=0.0.4; charset=utf-8", body: render(),
                    headers: [("cache-control:", "no-store")])
            return 0
        }
        if path == "/client-config.json" {
            // What the host page needs before it frames an app: where apps are served from.
            respond(wsi, id, status: 200, type: "application/json", body: JSONWriter.object { w in
                w.field("appsOrigin", config.appsOrigin)
            }, headers: [("cache-control:", "no-cache")])
            return 0
        }
        if path == "/signed-out" {
            // A page signing out on a shared computer: the conversations' images it
            // showed stayed in the browser's cache for a year (a privacy review).
            respond(wsi, id, status: 200, type: "application/json", body: Array("{}".utf8),
                    headers: [("cache-control:", "no-store"), ("clear-site-data:", "\"cache\"")])
            return 0
        }
        if path.hasPrefix("/blobs/") {
            guard let blob = blobs.find(String(path.dropFirst(7))) else {
                return respondError(wsi, id, 404, "not_found", "no such image", cors: true)
            }
            // private: a shared cache in front of the server (a CDN) must not keep what
            // only members were shown, nor serve it after it is deleted
            let headers = "X-Content-Type-Options: nosniff\r\nContent-Security-Policy: default-src 'none'; sandbox\r\n"
                + "Cache-Control: private, max-age=31536000, immutable\r\nAccess-Control-Allow-Origin: *\r\n"
            return serveFile(wsi, id, blob.path, blob.type.mime, headers + strictTransport)
        }
        guard let file = files.resolve(path, host: header(wsi, WSI_TOKEN_HOST)) else {
            // An app frame (an opaque origin) that asks for a missing file reads the 404,
            // not a CORS failure that names no cause (an app author's review).
            let fromApps = path.hasPrefix("/apps/") || path.hasPrefix("/sdk/")
            return respondError(wsi, id, 404, "not_found", "no such file", cors: fromApps)
        }
        return serveStatic(wsi, id, file)
    }

    /// A file of `Public/`: a page built with its scripts' versions, a script asked for
    /// by its current version (kept for good), or the file as it is (revalidated).
    private func serveStatic(_ wsi: OpaquePointer, _ id: UInt64, _ file: StaticFiles.Resolved) -> Int32 {
        if let page = pages.current(file.file) {
            return servePage(wsi, id, page, area: file.area)
        }
        let asked = VersionedPages.versionedAreas.contains(file.area) ? urlArgument(wsi, "v=") : nil
        return serveFile(wsi, id, file.file, file.mime, file.headers + strictTransport, askedVersion: asked)
    }

    /// A page built with its scripts' versions; revalidated on every load.
    private func servePage(_ wsi: OpaquePointer, _ id: UInt64, _ page: VersionedPages.Built, area: String) -> Int32 {
        let type = StaticFiles.mimeTypes["html"]!
        if EntityTag.matches(page.tag, header(wsi, WSI_TOKEN_HTTP_IF_NONE_MATCH)) {
            respond(wsi, id, status: 304, type: type, body: [],
                    headers: [("etag:", page.tag), ("cache-control:", "no-cache")], notModifiedLength: page.body.count)
            return 0
        }
        respond(wsi, id, status: 200, type: type, body: page.body,
                headers: files.pageHeaders(area: area, mapSource: page.mapSource, host: header(wsi, WSI_TOKEN_HOST)) + [("etag:", page.tag)])
        return 0
    }

    /// A query argument's value (`name` ends with "="), or nil.
    func urlArgument(_ wsi: OpaquePointer, _ name: String) -> String? {
        var buf = [CChar](repeating: 0, count: 128)
        return buf.withUnsafeMutableBufferPointer { b in
            lws_get_urlarg_by_name(wsi, name, b.baseAddress, Int32(b.count)).map { String(cString: $0) }
        }
    }

    /// A request from this machine that did not come through a proxy.
    func isLocalDirect(_ wsi: OpaquePointer) -> Bool {
        var buf = [CChar](repeating: 0, count: 64)
        let peer = PeerLimits.normalized(lws_get_peer_simple(wsi, &buf, 64).map { String(cString: $0) } ?? "")
        return (peer == "127.0.0.1" || peer == "::1") && header(wsi, WSI_TOKEN_X_FORWARDED_FOR) == nil
    }

    static let discardSeconds = 10
    static let discardBytes = 8 << 20

    /// Body bytes of a refused POST: dropped, within bounds.
    func discardBody(_ id: UInt64, _ len: Int) -> Int32 {
        guard let ex = exchanges[id] else { return 0 }
        ex.discarded += len
        return ex.discarded > Self.discardBytes ? -1 : 0
    }

    /// Closes refused POSTs whose body did not finish arriving in time.
    func sweepDiscards() {
        let now = ContinuousClock.now
        for ex in exchanges.values where ex.discardUntil.map({ $0 < now }) ?? false {
            exchanges[ex.id] = nil
            parlor_kill_async(ex.wsi)
        }
    }

    func isHead(_ wsi: OpaquePointer) -> Bool { lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI) > 0 }

    /// Whether the request came for the apps origin's host (`--apps-origin`).
    func isAppsHost(_ wsi: OpaquePointer) -> Bool {
        guard let apps = config.appsOrigin, let host = header(wsi, WSI_TOKEN_HOST) else { return false }
        return apps.lowercased().split(separator: "/").last.map(String.init) == host.lowercased()
    }

    /// HSTS in direct-TLS mode: a browser that once came over https never tries http.
    var strictTransport: String {
        config.tlsCertificate == nil ? "" : "Strict-Transport-Security: max-age=31536000\r\n"
    }

    /// Queues a JSON error response: `{"code":…,"message":…}`. `close` ends the connection
    /// after it (the client may still be sending a body the server will not read).
    @discardableResult
    func respondError(_ wsi: OpaquePointer, _ id: UInt64, _ status: Int, _ code: String, _ message: String,
                      close: Bool = false, retryAfterMs: Int? = nil, cors: Bool = false) -> Int32 {
        // Retry-After is in whole seconds; the body has the milliseconds.
        var headers = retryAfterMs.map { [("retry-after:", "\(($0 + 999) / 1000)")] } ?? []
        if cors { headers.append(("access-control-allow-origin:", "*")) }
        respond(wsi, id, status: status, type: "application/json", body: JSONWriter.object { w in
            w.field("code", code)
            w.field("message", message)
            w.field("retryAfterMs", retryAfterMs)
        }, headers: headers, close: close)
        return 0
    }

    func respond(_ wsi: OpaquePointer, _ id: UInt64, status: Int, type: String, body: [UInt8],
                 headers: [(String, String)] = [], close: Bool = false, notModifiedLength: Int? = nil) {
        let ex = HTTPExchange(id: id, wsi: wsi)
        var all = headers + [("x-content-type-options:", "nosniff")]
        if config.tlsCertificate != nil { all.append(("strict-transport-security:", "max-age=31536000")) }
        ex.response = (status, type, body, all)
        ex.headOnly = isHead(wsi)
        ex.closeAfter = close
        ex.notModifiedLength = notModifiedLength
        ex.bodyPending = close && lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI) > 0 && !bodiesDone.contains(id)
        exchanges[id] = ex
        lws_callback_on_writable(wsi)
    }

    func httpWriteable(_ wsi: OpaquePointer, _ user: UnsafeMutableRawPointer?) -> Int32 {
        guard let id = sessionId(user), let ex = exchanges[id], let r = ex.response else { return 0 }
        if !ex.headersSent {
            var buf = [UInt8](repeating: 0, count: pre + 2048)
            let ok = buf.withUnsafeMutableBufferPointer { b -> Bool in
                let start = b.baseAddress! + pre
                var p: UnsafeMutablePointer<UInt8>? = start
                let end = b.baseAddress! + b.count - 1
                let length = lws_filepos_t(ex.notModifiedLength ?? r.body.count)
                if lws_add_http_common_headers(wsi, UInt32(r.status), r.type, length, &p, end) != 0 {
                    return false
                }
                for (name, value) in r.headers {
                    let bad = value.withCString { v in
                        lws_add_http_header_by_name(wsi, name, v.withMemoryRebound(to: UInt8.self, capacity: 1) { $0 },
                                                    Int32(strlen(v)), &p, end) != 0
                    }
                    if bad { return false }
                }
                return lws_finalize_write_http_header(wsi, start, &p, end) == 0
            }
            guard ok else { return -1 }
            ex.headersSent = true
            if !r.body.isEmpty && !ex.headOnly {
                lws_callback_on_writable(wsi)
                return 0
            }
        } else {
            var buf = [UInt8](repeating: 0, count: pre) + r.body
            let n = buf.withUnsafeMutableBufferPointer { parlor_write_http(wsi, $0.baseAddress! + pre, r.body.count, 1) }
            if n < r.body.count { return -1 }
        }
        if ex.closeAfter && ex.bodyPending {
            ex.response = nil
            ex.discardUntil = .now + .seconds(Self.discardSeconds)
            return 0  // closed once the body is in (httpBodyComplete), or by the sweep
        }
        exchanges[id] = nil
        if ex.closeAfter { return -1 }
        return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
    }

    func httpClosed(_ user: UnsafeMutableRawPointer?) {
        guard let id = sessionId(user) else { return }
        exchanges[id] = nil
        bodiesDone.remove(id)
        healthChecks.forget(id)
        if let up = uploads.removeValue(forKey: id) { discard(up) }
    }
}
