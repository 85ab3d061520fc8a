import Testing
@testable import ParlorServer

/// However many ask `/health`, the database takes one write at a time for them.
struct HealthChecksTests {
    let t0 = ContinuousClock.now

    @Test func requestsDuringACheckShareItsAnswer() {
        var checks = HealthChecks<String>()
        #expect(checks.ask(1, "a", now: t0) == .check)
        #expect(checks.ask(2, "b", now: t0) == .queued)
        #expect(checks.ask(3, "c", now: t0) == .queued)
        #expect(checks.count == 3)
        let answered = checks.done(ok: true, now: t0 + .milliseconds(4))
        #expect(Set(answered.map(\.waiter)) == ["a", "b", "c"])
        #expect(checks.count == 0)
    }

    @Test func aSuccessAnswersForASecondThenTheDatabaseIsAskedAgain() {
        var checks = HealthChecks<String>()
        _ = checks.ask(1, "a", now: t0)
        _ = checks.done(ok: true, now: t0)
        #expect(checks.ask(2, "b", now: t0 + .milliseconds(999)) == .fresh)
        #expect(checks.count == 0)
        #expect(checks.ask(3, "c", now: t0 + .seconds(1)) == .check)
    }

    @Test func aFailureIsNotKept() {
        var checks = HealthChecks<String>()
        _ = checks.ask(1, "a", now: t0)
        #expect(checks.done(ok: false, now: t0).map(\.waiter) == ["a"])
        #expect(checks.ask(2, "b", now: t0 + .milliseconds(1)) == .check)
    }

    @Test func aClosedRequestIsNotAnswered() {
        var checks = HealthChecks<String>()
        _ = checks.ask(1, "a", now: t0)
        _ = checks.ask(2, "b", now: t0)
        checks.forget(1)
        #expect(checks.done(ok: true, now: t0).map(\.waiter) == ["b"])
    }

    @Test func aProblemIsLoggedOnceUntilItChangesOrGoes() {
        var checks = HealthChecks<String>()
        let said = ["disk full", "disk full", "database: I/O error", nil, "database: I/O error"].map { checks.isNews($0) }
        #expect(said == [true, false, true, false, true])
    }
}
