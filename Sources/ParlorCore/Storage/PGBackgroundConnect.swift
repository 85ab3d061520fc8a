import CLibPQ
import Foundation

/// Connecting again after a connection went unanswered, on a thread of its own: the
/// database that did not answer a call may not answer a connect either, and the engine
/// waiting out a deadline for it in every batch kept each request, /health included,
/// up to twice the deadline without an answer. The engine takes the connection once it
/// is made; meanwhile its batches fail at once.
final class PGBackgroundConnect: @unchecked Sendable {
    private let condition = NSCondition()
    private var running = false
    private var outcome: Result<OpaquePointer, PGWire.Failure>?

    /// An attempt is under way (for tests: it ended once its outcome is stored).
    var attempting: Bool {
        condition.lock()
        defer { condition.unlock() }
        return running
    }

    deinit {
        if case .success(let c)? = outcome { PQfinish(c) }
    }

    /// The outcome of the attempt under way, or of one started now, if there is one
    /// within `graceSeconds` (a database that answers again connects in milliseconds);
    /// else why the last one failed, or nil while the first still waits. An attempt that
    /// failed is followed by another at once: the database may answer by now.
    func take(graceSeconds: Double, _ open: @escaping @Sendable () throws(PGWire.Failure) -> OpaquePointer)
        -> Result<OpaquePointer, PGWire.Failure>? {
        condition.lock()
        defer { condition.unlock() }
        var lastFailure: PGWire.Failure?
        if case .failure(let f)? = outcome { (lastFailure, outcome) = (f, nil) }
        if outcome == nil && !running {
            running = true
            startNamedThread("parlor-pg-connect") { [self] in
                let made = Result { () throws(PGWire.Failure) in try open() }
                condition.lock()
                (outcome, running) = (made, false)
                condition.broadcast()
                condition.unlock()
            }
        }
        let until = Date(timeIntervalSinceNow: graceSeconds)
        while outcome == nil && condition.wait(until: until) {}
        defer { outcome = nil }
        return outcome ?? lastFailure.map { .failure($0) }
    }
}
