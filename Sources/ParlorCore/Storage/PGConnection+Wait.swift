import CLibPQ
import Foundation

/// Every round trip to PostgreSQL, and every connect, ends within `timeoutSeconds`.
/// A backend that stopped (`kill -STOP`, a machine swapping) or a network path that
/// silently drops packets never answers nor closes: libpq's blocking calls waited for
/// good, and with them the engine thread, every request of the node, its /health and
/// its stop (a cluster review, session 27). The call is sent with libpq's asynchronous
/// API and its socket polled until the deadline; then the connection is abandoned (not
/// cancelled: PQcancel opens another connection and waits on it too), the batch fails
/// as any failed batch (nothing of it was acknowledged: acks follow COMMIT), and the
/// next batch connects again.
extension PGConnection {
    /// Connects within the deadline (PQconnectdb and PQreset block, for as long as the
    /// kernel tries to open the socket).
    func connect() throws {
        abandon()
        guard !wakeup.fired else { throw Self.stopping }
        timedOut = false
        let deadline = self.deadline()
        let keywords = parameters.map { strdup($0.0) }, values = parameters.map { strdup($0.1) }
        defer { for p in keywords + values { free(p) } }
        let c = (keywords.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { k in
            (values.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { v in
                PQconnectStartParams(k.baseAddress, v.baseAddress, 1)
            }
        }
        guard let c else { throw PGError(state: "08000", message: "out of memory") }
        conn = c
        // NOTICEs ("relation already exists, skipping") are not for the operator's log.
        PQsetNoticeProcessor(c, { _, _ in }, nil)
        // libpq's rule: begin as if the last poll asked to write.
        var state = PQstatus(c) == CONNECTION_BAD ? PGRES_POLLING_FAILED : PGRES_POLLING_WRITING
        while state != PGRES_POLLING_OK {
            switch state {
            case PGRES_POLLING_READING: try wait(c, write: false, until: deadline, doing: "connecting")
            case PGRES_POLLING_WRITING: try wait(c, write: true, until: deadline, doing: "connecting")
            default:
                let message = lastError
                abandon()
                throw PGError(state: "08001", message: message)
            }
            state = PQconnectPoll(c)
        }
        // Nothing written may block either: a full socket buffer waits in `roundTrip`.
        PQsetnonblocking(c, 1)
        try simple(Self.sessionSettings)
    }

    /// Sends one call (`send` is one of libpq's PQsend… functions) and returns its
    /// result, as PQexec would: the last one, or the first that failed.
    func roundTrip(_ send: (OpaquePointer) -> Int32) throws -> OpaquePointer? {
        // Abandoned earlier in this batch: said as that was, so the batch is not run again.
        guard let c = conn else { throw PGError(state: "08003", message: "no connection to the server", unanswered: timedOut) }
        let deadline = self.deadline()
        guard send(c) == 1 else { throw lost() }
        while true {
            let flushed = PQflush(c)
            if flushed == 0 { break }
            if flushed < 0 { throw lost() }
            // libpq's rule: while it cannot write all, read what the server sends meanwhile.
            try wait(c, write: true, until: deadline, doing: "sending")
            guard PQconsumeInput(c) == 1 else { throw lost() }
        }
        var kept: OpaquePointer?
        while true {
            while PQisBusy(c) != 0 {
                do {
                    try wait(c, write: false, until: deadline, doing: "waiting for an answer")
                    guard PQconsumeInput(c) == 1 else { throw lost() }
                } catch {
                    PQclear(kept)
                    throw error
                }
            }
            guard let r = PQgetResult(c) else { break }
            if let k = kept, Self.failed(k) {
                PQclear(r)
            } else {
                PQclear(kept)
                kept = r
            }
        }
        return kept
    }

    private static func failed(_ res: OpaquePointer) -> Bool {
        let s = PQresultStatus(res)
        return s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK && s != PGRES_EMPTY_QUERY
    }

    /// Until `c`'s socket is ready, or throws once `deadline` passed or the node stops
    /// (the connection abandoned then).
    private func wait(_ c: OpaquePointer, write: Bool, until deadline: UInt64?, doing what: String) throws {
        let fd = PQsocket(c)
        guard fd >= 0 else { return }  // libpq's next call reports the lost connection
        var fds = [pollfd(fd: fd, events: Int16(write ? POLLIN | POLLOUT : POLLIN), revents: 0),
                   pollfd(fd: wakeup.readEnd, events: Int16(POLLIN), revents: 0)]
        while true {
            var ms: Int32 = -1
            if let deadline {
                let now = DispatchTime.now().uptimeNanoseconds
                guard now < deadline else {
                    abandon()
                    timedOut = true
                    throw PGError(state: "08006", message: "PostgreSQL did not answer within \(timeoutSeconds) s (\(what)); the connection was dropped",
                                  unanswered: true)
                }
                ms = Int32(min((deadline - now + 999_999) / 1_000_000, 60_000))
            }
            let n = poll(&fds, 2, ms)
            if n < 0 && errno != EINTR {
                abandon()
                throw PGError(state: "08006", message: "poll: \(String(cString: strerror(errno)))", unanswered: true)
            }
            if fds[1].revents != 0 {
                abandon()
                timedOut = true
                throw Self.stopping
            }
            if n > 0 && fds[0].revents != 0 { return }
        }
    }

    /// The connection broke mid-call (the server closed it, a reset): why, and it is
    /// dropped, so the next batch connects again rather than finding a call half done.
    private func lost() -> PGError {
        let error = PGError(state: "08006", message: lastError)
        abandon()
        return error
    }

    /// Drops the connection without a word more to the server (the socket is non-blocking,
    /// so PQfinish's goodbye cannot wait).
    func abandon() {
        if let conn { PQfinish(conn) }
        conn = nil
        prepared = [:]
    }

    /// The node is stopping and PostgreSQL does not answer: every wait, this one and
    /// the next, ends now. From any thread.
    func stopWaiting() { wakeup.fire() }

    private static var stopping: PGError {
        PGError(state: "08006", message: "the node is stopping; PostgreSQL did not answer", unanswered: true)
    }

    private func deadline() -> UInt64? {
        bounded ? DispatchTime.now().uptimeNanoseconds + UInt64(timeoutSeconds) * 1_000_000_000 : nil
    }

    var lastError: String { conn.map { Self.trimmed(PQerrorMessage($0)) } ?? "no connection to the server" }
}

/// A pipe whose read end every wait polls beside the socket: written once, readable for
/// good, so the engine's waits end however many follow.
final class PGWakeup: @unchecked Sendable {
    let readEnd: Int32
    private let writeEnd: Int32

    init() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw PGError(state: "58000", message: "pipe: \(String(cString: strerror(errno)))") }
        (readEnd, writeEnd) = (fds[0], fds[1])
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    func fire() { _ = write(writeEnd, "x", 1) }

    var fired: Bool {
        var p = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 0) > 0
    }
}
