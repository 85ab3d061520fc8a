import CLibPQ
import Foundation

/// libpq's asynchronous calls on a non-blocking socket, each waited for with `poll`
/// until a deadline: the only places a PostgreSQL connection waits. On the engine
/// thread (`PGConnection+Wait.swift`) and on a background connect's own thread
/// (`PGBackgroundConnect.swift`).
enum PGWire {
    /// Why a call ended without its result.
    enum Failure: Error {
        /// Nothing came before the deadline.
        case unanswered(doing: String)
        /// The node is stopping (`PGWakeup` fired).
        case stopping
        /// The connection broke, or could not be made (libpq's message).
        case lost(String)
    }

    /// A connection, its session set up (`PGConnection.sessionSettings`). PQconnectdb and
    /// PQreset block for as long as the kernel tries to open the socket.
    static func open(_ parameters: [(String, String)], until deadline: UInt64?, wakeup: PGWakeup) throws(Failure) -> OpaquePointer {
        guard !wakeup.fired else { throw .stopping }
        let keywords = parameters.map { strdup($0.0) }, values = parameters.map { strdup($0.1) }
        defer { for p in keywords + values { free(p) } }
        let made = (keywords.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { k in
            (values.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { v in
                PQconnectStartParams(k.baseAddress, v.baseAddress, 1)
            }
        }
        guard let c = made else { throw .lost("out of memory") }
        do throws(Failure) {
            // NOTICEs ("relation already exists, skipping") are not for the operator's log.
            PQsetNoticeProcessor(c, { _, _ in }, nil)
            // libpq's rule: begin as if the last poll asked to write.
            var state = PQstatus(c) == CONNECTION_BAD ? PGRES_POLLING_FAILED : PGRES_POLLING_WRITING
            while state != PGRES_POLLING_OK {
                switch state {
                case PGRES_POLLING_READING: try wait(c, write: false, until: deadline, wakeup: wakeup, doing: "connecting")
                case PGRES_POLLING_WRITING: try wait(c, write: true, until: deadline, wakeup: wakeup, doing: "connecting")
                default: throw Failure.lost(message(c))
                }
                state = PQconnectPoll(c)
            }
            // Nothing written may block either: a full socket buffer waits in `roundTrip`.
            PQsetnonblocking(c, 1)
            let res = try roundTrip(c, until: deadline, wakeup: wakeup) { PQsendQuery($0, PGConnection.sessionSettings) }
            defer { PQclear(res) }
            guard let res, PQresultStatus(res) == PGRES_COMMAND_OK else { throw Failure.lost(message(c)) }
            return c
        } catch {
            PQfinish(c)  // non-blocking, or not yet connected: no goodbye that could wait
            throw error
        }
    }

    /// Sends one call (`send` is one of libpq's PQsend… functions) and returns its
    /// result, as PQexec would: the last one, or the first that failed.
    static func roundTrip(_ c: OpaquePointer, until deadline: UInt64?, wakeup: PGWakeup,
                          _ send: (OpaquePointer) -> Int32) throws(Failure) -> OpaquePointer? {
        guard send(c) == 1 else { throw .lost(message(c)) }
        while true {
            let flushed = PQflush(c)
            if flushed == 0 { break }
            if flushed < 0 { throw .lost(message(c)) }
            // libpq's rule: while it cannot write all, read what the server sends meanwhile.
            try wait(c, write: true, until: deadline, wakeup: wakeup, doing: "sending")
            guard PQconsumeInput(c) == 1 else { throw .lost(message(c)) }
        }
        var kept: OpaquePointer?
        while true {
            while PQisBusy(c) != 0 {
                do throws(Failure) {
                    try wait(c, write: false, until: deadline, wakeup: wakeup, doing: "waiting for an answer")
                    guard PQconsumeInput(c) == 1 else { throw Failure.lost(message(c)) }
                } catch {
                    PQclear(kept)
                    throw error
                }
            }
            guard let r = PQgetResult(c) else { break }
            if let k = kept, failed(k) {
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

    /// Until `c`'s socket is ready; throws once `deadline` passed or the node stops.
    private static func wait(_ c: OpaquePointer, write: Bool, until deadline: UInt64?, wakeup: PGWakeup,
                             doing what: String) throws(Failure) {
        let fd = PQsocket(c)
        guard fd >= 0 else { return }  // libpq's next call reports the lost connection
        var fds = [pollfd(fd: fd, events: Int16(write ? POLLIN | POLLOUT : POLLIN), revents: 0),
                   pollfd(fd: wakeup.readEnd, events: Int16(POLLIN), revents: 0)]
        while true {
            var ms: Int32 = -1
            if let deadline {
                let now = DispatchTime.now().uptimeNanoseconds
                guard now < deadline else { throw .unanswered(doing: what) }
                ms = Int32(min((deadline - now + 999_999) / 1_000_000, 60_000))
            }
            let n = poll(&fds, 2, ms)
            if n < 0 && errno != EINTR { throw .lost("poll: \(String(cString: strerror(errno)))") }
            if fds[1].revents != 0 { throw .stopping }
            if n > 0 && fds[0].revents != 0 { return }
        }
    }

    /// libpq's last message, on one line.
    static func message(_ c: OpaquePointer) -> String { PGConnection.trimmed(PQerrorMessage(c)) }
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
