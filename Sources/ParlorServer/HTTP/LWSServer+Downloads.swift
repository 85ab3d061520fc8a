import CLibWebSockets
import Foundation
import ParlorCore

/// A file being sent: the client's own files and images. lws sends it and restarts its
/// timeout on every piece, so the deadline is kept here. Kept by connection (one file at
/// a time on HTTP/1.1): lws also ends some transactions without telling (HEAD, a bad
/// Range), and the connection's next request or its close forgets what it sent.
struct Download {
    let address: String
    let deadline: ContinuousClock.Instant
}

extension LWSServer {
    /// lws writes the file (headers only for HEAD) and completes the transaction; while
    /// too many files are being sent, in all or to this address, the request is refused
    /// (each holds an open file: slow readers from a few addresses ran the process out
    /// of file descriptors, an outside review).
    ///
    /// Each file carries an ETag (its change time and size), and a request naming it in
    /// If-None-Match is answered 304 without the file: a page opened again revalidates its
    /// scripts, styles and pictures instead of fetching them all (`Cache-Control:
    /// no-cache` alone, with no validator, made every load a full one).
    ///
    /// `askedVersion` is the `?v=` a page named the file by (VersionedPages): the file's
    /// current tag, and the browser may keep it for good.
    func serveFile(_ wsi: OpaquePointer, _ id: UInt64, _ path: String, _ mime: String, _ headers: String,
                   askedVersion: String? = nil) -> Int32 {
        var info = stat()
        let size = stat(path, &info) == 0 ? Int(info.st_size) : 0
        let tag = EntityTag.of(size: size, changed: info.st_mtim)
        let kept = askedVersion.map { "\"" + $0 + "\"" } == tag ? StaticFiles.versioned(headers) : headers
        if EntityTag.matches(tag, header(wsi, WSI_TOKEN_HTTP_IF_NONE_MATCH)) {
            respond(wsi, id, status: 304, type: mime, body: [], headers: EntityTag.notModifiedHeaders(tag, of: kept),
                    notModifiedLength: size)
            return 0
        }
        let headers = kept + "ETag: \(tag)\r\n"
        let address = clientAddress(wsi)
        if downloads.count >= Limits.downloadsInFlight {
            refusedDownloads += 1
            return respondError(wsi, id, 503, "busy", "too many files are being sent: try again in a moment",
                                retryAfterMs: 1000, cors: true)
        }
        if downloads.values.lazy.filter({ $0.address == address }).count >= Limits.downloadsPerAddress {
            refusedDownloads += 1
            return respondError(wsi, id, 429, "too_many_downloads",
                                "at most \(Limits.downloadsPerAddress) files at once to one address", retryAfterMs: 1000, cors: true)
        }
        let r = headers.withCString { h in
            lws_serve_http_file(wsi, path, mime, h, Int32(strlen(h)))
        }
        if r < 0 { return -1 }
        if r > 0 { return lws_http_transaction_completed(wsi) != 0 ? -1 : 0 }
        if isHead(wsi) { return 0 }  // headers only, and the transaction is complete
        let seconds = Limits.uploadSeconds + size / Limits.downloadMinBytesPerSecond
        downloads[wsi] = Download(address: address, deadline: .now + .seconds(seconds))
        return 0
    }

    /// The file is sent, the connection takes its next request, or it is gone.
    func downloadFinished(_ wsi: OpaquePointer) {
        downloads[wsi] = nil
    }

    /// Run by the sweep: a download past its deadline is cut off.
    func sweepDownloads() {
        let now = ContinuousClock.now
        if refusedDownloads > 0 {
            log.warning("files refused: too many being sent", metadata: ["count": "\(refusedDownloads)", "sending": "\(downloads.count)"])
            refusedDownloads = 0
        }
        for (wsi, d) in downloads where d.deadline < now {
            log.notice("download cut off", metadata: ["peer": "\(d.address)", "why": "deadline"])
            downloads[wsi] = nil
            // lws restarts the timeout with each piece of the file it sends, which undid
            // `parlor_kill_async`: the socket is shut down, and lws closes it on seeing
            // that, with a reset (no lingering to send what the kernel still holds).
            let fd = lws_get_socket_fd(wsi)
            guard fd >= 0 else { continue }
            var drop = linger(l_onoff: 1, l_linger: 0)
            setsockopt(fd, SOL_SOCKET, SO_LINGER, &drop, socklen_t(MemoryLayout<linger>.size))
            shutdown(fd, Int32(SHUT_RDWR))
        }
    }
}
