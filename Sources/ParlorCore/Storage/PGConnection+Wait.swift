import CLibPQ
import Foundation

/// Every round trip to PostgreSQL, and every connect, ends within `timeoutSeconds`.
/// A backend that stopped (`kill -STOP`, a machine swapping) or a network path that
/// silently drops packets never answers nor closes: libpq's blocking calls waited for
/// good, and with them the engine thread, every request of the node, its /health and
/// its stop (a cluster review, session 27). Calls go through `PGWire` now; without an
/// answer in time the connection is abandoned (not cancelled: PQcancel opens another
/// connection and waits on it too), the batch fails as any failed batch (nothing of it
/// was acknowledged: acks follow COMMIT), and the next connection is made in the
/// background (`PGBackgroundConnect`).
extension PGConnection {
    /// How long a batch waits for a background connect before it fails: a database
    /// that answers again connects in milliseconds.
    static let connectGraceSeconds = 0.25

    /// Connects within the deadline, on this thread.
    func connect() throws {
        abandon()
        do {
            conn = try PGWire.open(parameters, until: deadline(), wakeup: wakeup)
            timedOut = false
        } catch {
            throw failure(error, connecting: true)
        }
    }

    /// After the server restarted, the network dropped or a call went unanswered:
    /// connect again (prepared statements died with the old session).
    func reconnectIfBroken() throws {
        guard !connected else { return }
        guard !wakeup.fired else { throw failure(.stopping) }
        guard timedOut else { return try connect() }
        // The last call went unanswered: a connect may wait as long, so it runs on a thread
        // of its own, and this batch fails unless it is done within the grace.
        abandon()
        let (parameters, timeoutSeconds, wakeup) = (parameters, timeoutSeconds, wakeup)
        let outcome = background.take(graceSeconds: Self.connectGraceSeconds) { () throws(PGWire.Failure) in
            try PGWire.open(parameters, until: Self.deadline(timeoutSeconds), wakeup: wakeup)
        }
        switch outcome {
        case .success(let c)?:
            conn = c
            timedOut = false
        case .failure(let f)?:
            throw failure(f, connecting: true, unanswered: true)
        case nil:
            throw PGError(state: "08006", message: "PostgreSQL did not answer within \(timeoutSeconds) s; connecting again",
                          unanswered: true)
        }
    }

    /// Sends one call (`send` is one of libpq's PQsend… functions) and returns its result.
    func roundTrip(_ send: (OpaquePointer) -> Int32) throws -> OpaquePointer? {
        // Abandoned earlier in this batch: said as that was, so the batch is not run again.
        guard let c = conn else { throw PGError(state: "08003", message: "no connection to the server", unanswered: timedOut) }
        do {
            return try PGWire.roundTrip(c, until: deadline(), wakeup: wakeup, send)
        } catch {
            // Lost or unanswered, it is dropped: the next batch connects again rather than
            // finding a call half done.
            abandon()
            throw failure(error)
        }
    }

    /// What the batch is told of a failed call or connect; after an unanswered one the
    /// next connect is made in the background.
    private func failure(_ f: PGWire.Failure, connecting: Bool = false, unanswered: Bool = false) -> PGError {
        switch f {
        case .unanswered(let what):
            timedOut = true
            return PGError(state: "08006", message: "PostgreSQL did not answer within \(timeoutSeconds) s (\(what)); the connection was dropped",
                           unanswered: true)
        case .stopping:
            timedOut = true
            return PGError(state: "08006", message: "the node is stopping; PostgreSQL did not answer", unanswered: true)
        case .lost(let message):
            return PGError(state: connecting ? "08001" : "08006", message: message, unanswered: unanswered)
        }
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

    private func deadline() -> UInt64? { bounded ? Self.deadline(timeoutSeconds) : nil }

    private static func deadline(_ seconds: Int) -> UInt64 {
        DispatchTime.now().uptimeNanoseconds + UInt64(seconds) * 1_000_000_000
    }

    var lastError: String { conn.map { PGWire.message($0) } ?? "no connection to the server" }
}
