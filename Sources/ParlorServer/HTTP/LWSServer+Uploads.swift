import CLibWebSockets
import Foundation
import ParlorCore

/// `POST /blobs`: an image upload. Nothing is buffered in memory and nothing is read
/// before the token is known to be valid; the body streams into a temporary file, and
/// uploads are bounded in number (in all and per address), in time and in rate.
extension LWSServer {
    func beginUpload(_ wsi: OpaquePointer, _ id: UInt64, _ path: String) -> Int32 {
        guard path == "/blobs" else { return respondError(wsi, id, 404, "not_found", "nothing to post here", close: true) }
        let address = clientAddress(wsi)
        // digits only (RFC 9110 §8.6): Int() also takes "+73"
        guard let length = header(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH).flatMap({ $0.utf8.allSatisfy { $0 &- 48 < 10 } ? Int($0) : nil }),
              length > 0 else {
            log.notice("upload refused: no length", metadata: ["peer": "\(address)"])
            return respondError(wsi, id, 411, "length_required", "send the image with a Content-Length", close: true)
        }
        guard length <= Limits.blobBytes else {
            log.notice("upload refused: too large", metadata: ["peer": "\(address)", "bytes": "\(length)"])
            return respondError(wsi, id, 413, "too_large", "images are limited to 5 MiB", close: true)
        }
        guard let auth = header(wsi, WSI_TOKEN_HTTP_AUTHORIZATION), auth.hasPrefix("Bearer "),
              case let token = auth.dropFirst(7).trimmingCharacters(in: .whitespaces), !token.isEmpty, token.count <= 128
        else {
            log.notice("upload refused: no token", metadata: ["peer": "\(address)"])
            return respondError(wsi, id, 401, "invalid_token", "send Authorization: Bearer <token>", close: true)
        }
        // the upload's own bytes and those still to come of the others count against the
        // reserve: four uploads admitted at once on 10 MiB free, 8 kept, emptied the disk
        let coming = uploads.values.reduce(length) { $0 + max(0, $1.expected - $1.received) }
        if let problem = diskProblem(promised: coming) {
            log.warning("upload refused: disk", metadata: ["peer": "\(address)", "problem": "\(problem)"])
            return respondError(wsi, id, 507, "storage_full", "the server is out of space", close: true)
        }
        guard uploads.count < Limits.uploadsInFlight else {
            log.warning("upload refused: server busy", metadata: ["peer": "\(address)"])
            return respondError(wsi, id, 503, "busy", "too many uploads right now; try again shortly", close: true)
        }
        guard uploads.values.filter({ $0.address == address }).count < Limits.uploadsPerAddress else {
            log.notice("upload refused: too many from one address", metadata: ["peer": "\(address)"])
            return respondError(wsi, id, 429, "too_many_uploads",
                                "at most \(Limits.uploadsPerAddress) uploads at once", close: true)
        }
        guard let temp = blobs.makeTemporary() else {
            log.error("upload failed: cannot create a temporary file", metadata: ["errno": "\(errno)", "dir": "\(blobs.directory)"])
            return respondError(wsi, id, 500, "internal", "the server could not store the image", close: true)
        }
        uploads[id] = Upload(id: id, wsi: wsi, address: address, expected: length, fd: temp.fd, path: temp.path)
        // Read nothing more until the engine has checked the token.
        lws_rx_flow_control(wsi, 0)
        engine?.submit(.checkUploadToken(id, token: token, bytes: length))
        return 0
    }

    func httpBody(_ user: UnsafeMutableRawPointer?, _ input: UnsafeMutableRawPointer?, _ len: Int) -> Int32 {
        guard let id = sessionId(user) else { return 0 }
        guard let up = uploads[id] else { return discardBody(id, len) }
        guard up.fd >= 0, let input, len > 0 else { return 0 }
        guard up.received + len <= up.expected else {
            refuse(up, 400, "bad_length", "the body is longer than its Content-Length")
            return 0
        }
        var off = 0
        while off < len {
            let n = write(up.fd, input + off, len - off)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                log.error("upload failed: write", metadata: ["errno": "\(errno)", "peer": "\(up.address)"])
                refuse(up, 507, "storage_full", "the server could not store the image")
                return 0
            }
            off += n
        }
        up.received += len
        return 0
    }

    func httpBodyComplete(_ wsi: OpaquePointer, _ user: UnsafeMutableRawPointer?) -> Int32 {
        guard let id = sessionId(user) else { return 0 }
        guard let up = uploads[id] else {
            // A refused POST: once its answer is out, the connection can close.
            if let ex = exchanges[id] {
                ex.bodyPending = false
                if ex.response == nil { exchanges[id] = nil; return -1 }
            } else {
                bodiesDone.insert(id)
            }
            return 0
        }
        up.bodyDone = true
        commitIfReady(up)
        return 0
    }

    /// The engine's answer on the token.
    func uploadAuthorized(_ id: UInt64, _ verdict: UploadVerdict) {
        guard let up = uploads[id] else { return }
        switch verdict {
        case .allowed(let userId):
            // One account's slow uploads from several addresses held every slot there
            // is (a trickle just above the minimum rate, 120 s each).
            guard uploads.values.filter({ $0.userId == userId }).count < Limits.uploadsPerAddress else {
                log.notice("upload refused: too many from one account", metadata: ["peer": "\(up.address)", "user": "\(userId)"])
                return refuse(up, 429, "too_many_uploads", "at most \(Limits.uploadsPerAddress) uploads at once")
            }
            up.userId = userId
        case .invalidToken: return refuse(up, 401, "invalid_token", "this token is not valid")
        case .quotaExceeded:
            return refuse(up, 413, "quota_exceeded", "your stored images have reached this server's limit; delete some messages")
        case .rateLimited(let wait):
            return refuse(up, 429, "rate_limited", "too many bytes uploaded today; try again later",
                          retryAfterMs: wait)
        }
        up.authorized = true
        lws_rx_flow_control(up.wsi, 1)
        commitIfReady(up)
    }

    /// Checks and stores the file off the service thread (hashing and fsync take time).
    private func commitIfReady(_ up: Upload) {
        guard up.bodyDone, up.authorized == true, !up.committing else { return }
        up.committing = true
        Glibc.close(up.fd)
        up.fd = -1
        let (blobs, log, id, path, address) = (self.blobs, self.log, up.id, up.path, up.address)
        let (engine, userId) = (self.engine, up.userId ?? "")
        blobQueue.async { [weak self] in
            let action: EngineAction
            do {
                let stored = try blobs.commit(temporary: path)
                // The engine records who stored it, then answers.
                engine?.submit(.blobStored(id, userId: userId, hash: stored.hash, size: stored.size,
                                           reply: JSONWriter.object { w in
                    w.field("hash", stored.hash)
                    w.field("type", stored.type.mime)
                    w.field("size", stored.size)
                }))
                return
            } catch let error as BlobStore.Refusal {
                log.notice("upload refused", metadata: ["code": "\(error.code)", "peer": "\(address)"])
                action = .uploadDone(id, status: error.status, body: JSONWriter.object { w in
                    w.field("code", error.code)
                    w.field("message", error.message)
                })
            } catch {
                action = .uploadDone(id, status: 500, body: Array(#"{"code":"internal"}"#.utf8))
            }
            self?.post([action])
        }
    }

    func uploadDone(_ id: UInt64, _ status: Int, _ body: [UInt8]) {
        guard let up = uploads.removeValue(forKey: id) else { return }
        if status == 201 { metrics.blobBytes.increment(by: up.received) }
        respond(up.wsi, id, status: status, type: "application/json", body: body)
    }

    /// Ends an upload with an error answer and closes the connection after it.
    private func refuse(_ up: Upload, _ status: Int, _ code: String, _ message: String, retryAfterMs: Int? = nil) {
        log.notice("upload refused", metadata: ["peer": "\(up.address)", "code": "\(code)"])
        uploads[up.id] = nil
        discard(up)
        if up.bodyDone { bodiesDone.insert(up.id) }  // nothing left to drain: close after the answer
        // lws 4.1 gives no writeable callback to a connection whose reading is paused.
        lws_rx_flow_control(up.wsi, 1)
        respondError(up.wsi, up.id, status, code, message, close: true, retryAfterMs: retryAfterMs)
    }

    func discard(_ up: Upload) {
        if up.fd >= 0 { Glibc.close(up.fd); up.fd = -1 }
        if !up.committing { unlink(up.path) }
    }

    /// Run by the sweep: an upload past its deadline, or trickling under the minimum
    /// rate after its grace period, is cut off (lws's own timeout restarts on every byte).
    func sweepUploads() {
        let now = ContinuousClock.now
        for up in uploads.values where !up.committing {
            let seconds = Double((now - up.startedAt).components.seconds)
            let late = seconds > Double(Limits.uploadSeconds)
            let slow = seconds > Double(Limits.uploadGraceSeconds)
                && Double(up.received) < seconds * Double(Limits.uploadMinBytesPerSecond)
            guard late || slow else { continue }
            log.notice("upload cut off", metadata: ["peer": "\(up.address)", "why": "\(late ? "deadline" : "too slow")",
                                                    "received": "\(up.received)", "expected": "\(up.expected)"])
            uploads[up.id] = nil
            discard(up)
            parlor_kill_async(up.wsi)
        }
    }
}
