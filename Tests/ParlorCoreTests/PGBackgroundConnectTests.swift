import Foundation
import Synchronization
import Testing
@testable import ParlorCore

/// The engine's side of connecting again in the background: it never waits past the
/// grace, takes the connection once made, and a failed attempt is followed by another.
/// No PostgreSQL needed: the connect is a closure, its connection a stand-in pointer
/// (always taken, so never handed to PQfinish).
@Suite struct PGBackgroundConnectTests {
    private static var made: OpaquePointer { OpaquePointer(bitPattern: 0x1000)! }

    @Test func aSlowConnectFailsTheBatchWithinTheGraceAndIsTakenOnceMade() {
        let background = PGBackgroundConnect()
        let release = DispatchSemaphore(value: 0)
        let attempts = Atomic<Int>(0)
        let open: @Sendable () throws(PGWire.Failure) -> OpaquePointer = { () throws(PGWire.Failure) in
            attempts.add(1, ordering: .sequentiallyConsistent)
            release.wait()
            return Self.made
        }
        let start = Date()
        #expect(background.take(graceSeconds: 0.05, open) == nil)
        #expect(background.take(graceSeconds: 0.05, open) == nil)
        #expect(Date().timeIntervalSince(start) < 2)
        #expect(attempts.load(ordering: .sequentiallyConsistent) == 1, "one attempt at a time")
        release.signal()
        guard case .success(let c)? = background.take(graceSeconds: 5, open) else {
            Issue.record("the connection made was not taken")
            return
        }
        #expect(c == Self.made)
    }

    @Test func aFailedAttemptIsToldAndAnotherBegins() {
        let background = PGBackgroundConnect()
        let failing: @Sendable () throws(PGWire.Failure) -> OpaquePointer = { () throws(PGWire.Failure) in
            throw PGWire.Failure.unanswered(doing: "connecting")
        }
        guard case .failure(.unanswered)? = background.take(graceSeconds: 5, failing) else {
            Issue.record("the failure was not told")
            return
        }
        // one that fails after the batch stopped waiting: the next batch does not get
        // its stale failure, but a new attempt, made by then
        let release = DispatchSemaphore(value: 0)
        let slowFailing: @Sendable () throws(PGWire.Failure) -> OpaquePointer = { () throws(PGWire.Failure) in
            release.wait()
            throw PGWire.Failure.lost("connection refused")
        }
        #expect(background.take(graceSeconds: 0.05, slowFailing) == nil)
        release.signal()
        let until = Date(timeIntervalSinceNow: 10)
        while background.attempting && Date() < until { Thread.sleep(forTimeInterval: 0.01) }
        #expect(!background.attempting)
        let succeeding: @Sendable () throws(PGWire.Failure) -> OpaquePointer = { () throws(PGWire.Failure) in Self.made }
        guard case .success? = background.take(graceSeconds: 5, succeeding) else {
            Issue.record("the stale failure was told, no new attempt made")
            return
        }
    }
}
