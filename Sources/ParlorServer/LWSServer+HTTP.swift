import CLibWebSockets
import Foundation
import ParlorCore

/// Plain HTTP: the health check, image blobs and the files of `Public/`.
extension LWSServer {
    func httpRequest(_ wsi: OpaquePointer, _ user: UnsafeMutableRawPointer?, _ input: UnsafeMutableRawPointer?) -> Int32 {
        let path = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "/"
        let id = makeId()
        setSessionId(user, id)
        let ex = HTTPExchange(id: id, wsi: wsi)
        exchanges[id] = ex
        let isPost = lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI) > 0
        let isGet = lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) > 0

        if isPost {
            guard path == "/blobs" else { return respondError(ex, 404, "not_found", "nothing to post here") }
            let length = header(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH).flatMap { Int($0) } ?? 0
            if length > Limits.blobBytes {
                ex.closeAfter = true
                return respondError(ex, 413, "too_large", "images are limited to 5 MiB")
            }
            guard length > 0 else { return respondError(ex, 411, "length_required", "send the image with a Content-Length") }
            if let auth = header(wsi, WSI_TOKEN_HTTP_AUTHORIZATION), auth.hasPrefix("Bearer ") {
                ex.token = String(auth.dropFirst(7)).trimmingCharacters(in: .whitespaces)
            }
            ex.body.reserveCapacity(length)
            return 0  // the body follows
        }
        guard isGet else { return respondError(ex, 405, "method_not_allowed", "only GET and POST are served") }

        if path == "/health" {
            respond(ex, status: 200, type: "application/json", body: Array(#"{"status":"ok"}"#.utf8),
                    headers: [("cache-control:", "no-store")])
            return 0
        }
        if path.hasPrefix("/blobs/") {
            guard let blob = blobs.find(String(path.dropFirst(7))) else {
                return respondError(ex, 404, "not_found", "no such image")
            }
            let headers = "X-Content-Type-Options: nosniff\r\nContent-Security-Policy: default-src 'none'\r\n"
                + "Cache-Control: public, max-age=31536000, immutable\r\nAccess-Control-Allow-Origin: *\r\n"
            return serveFile(wsi, blob.path, blob.type.mime, headers)
        }
        guard let file = files.resolve(path) else { return respondError(ex, 404, "not_found", "no such file") }
        return serveFile(wsi, file.file, file.mime, file.headers)
    }

    private func serveFile(_ wsi: OpaquePointer, _ path: String, _ mime: String, _ headers: String) -> Int32 {
        let r = headers.withCString { h in
            lws_serve_http_file(wsi, path, mime, h, Int32(strlen(h)))
        }
        if r < 0 { return -1 }
        if r > 0 { return lws_http_transaction_completed(wsi) != 0 ? -1 : 0 }
        return 0
    }

    func httpBody(_ user: UnsafeMutableRawPointer?, _ input: UnsafeMutableRawPointer?, _ len: Int) -> Int32 {
        guard let id = sessionId(user), let ex = exchanges[id], let input else { return 0 }
        if ex.body.count + len > Limits.blobBytes {
            ex.tooLarge = true
            ex.body = []
        } else if !ex.tooLarge {
            ex.body.append(contentsOf: UnsafeRawBufferPointer(start: input, count: len))
        }
        return 0
    }

    func httpBodyComplete(_ wsi: OpaquePointer, _ user: UnsafeMutableRawPointer?) -> Int32 {
        guard let id = sessionId(user), let ex = exchanges[id] else { return -1 }
        if ex.tooLarge {
            ex.closeAfter = true
            return respondError(ex, 413, "too_large", "images are limited to 5 MiB")
        }
        let body = ex.body
        ex.body = []
        engine?.submit(.upload(id, token: ex.token, body: body))
        return 0
    }

    /// Queues a JSON error response: `{"code":…,"message":…}`.
    func respondError(_ ex: HTTPExchange, _ status: Int, _ code: String, _ message: String) -> Int32 {
        respond(ex, status: status, type: "application/json", body: JSONWriter.object { w in
            w.field("code", code)
            w.field("message", message)
        })
        return 0
    }

    func respond(_ ex: HTTPExchange, status: Int, type: String, body: [UInt8], headers: [(String, String)] = []) {
        ex.response = (status, type, body, headers + [("x-content-type-options:", "nosniff")])
        lws_callback_on_writable(ex.wsi)
    }

    func httpWriteable(_ wsi: OpaquePointer, _ user: UnsafeMutableRawPointer?) -> Int32 {
        guard let id = sessionId(user), let ex = exchanges[id], let r = ex.response else { return 0 }
        if !ex.headersSent {
            var buf = [UInt8](repeating: 0, count: pre + 2048)
            let ok = buf.withUnsafeMutableBufferPointer { b -> Bool in
                let start = b.baseAddress! + pre
                var p: UnsafeMutablePointer<UInt8>? = start
                let end = b.baseAddress! + b.count - 1
                if lws_add_http_common_headers(wsi, UInt32(r.status), r.type, lws_filepos_t(r.body.count), &p, end) != 0 {
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
            if !r.body.isEmpty {
                lws_callback_on_writable(wsi)
                return 0
            }
        } else {
            var buf = [UInt8](repeating: 0, count: pre) + r.body
            let n = buf.withUnsafeMutableBufferPointer { parlor_write_http(wsi, $0.baseAddress! + pre, r.body.count, 1) }
            if n < r.body.count { return -1 }
        }
        exchanges[id] = nil
        if ex.closeAfter { return -1 }
        return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
    }

    func httpClosed(_ user: UnsafeMutableRawPointer?) {
        if let id = sessionId(user) { exchanges[id] = nil }
    }
}
