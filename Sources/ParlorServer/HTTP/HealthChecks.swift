/// What `/health` asks of the database, however many ask: one write at a time. Requests
/// that come while a check is in the engine are answered by it, and a write that
/// succeeded answers every request for `freshFor` after it. Before, every request was a
/// write the engine made: anyone could keep it writing thousands of rows a second, and a
/// monitor's sequential probes each waited for a commit (3.8 ms each, debug build).
struct HealthChecks<Waiter> {
    enum Asked: Equatable {
        /// The database took a write just now: answer 200 at once.
        case fresh
        /// Nothing is in the engine: submit a check.
        case check
        /// A check is in the engine: its answer is this request's too.
        case queued
    }

    let freshFor: Duration
    private var waiting: [UInt64: Waiter] = [:]
    private var checking = false
    private var lastSuccess: ContinuousClock.Instant?
    private var lastProblem: String?

    init(freshFor: Duration = .seconds(1)) {
        self.freshFor = freshFor
    }

    /// Requests waiting for the check in the engine.
    var count: Int { waiting.count }

    mutating func ask(_ id: UInt64, _ waiter: Waiter, now: ContinuousClock.Instant = .now) -> Asked {
        if let lastSuccess, now - lastSuccess < freshFor { return .fresh }
        waiting[id] = waiter
        if checking { return .queued }
        checking = true
        return .check
    }

    /// The engine's answer: whom it answers. A failure is not kept: the next request
    /// asks the database again.
    mutating func done(ok: Bool, now: ContinuousClock.Instant = .now) -> [(id: UInt64, waiter: Waiter)] {
        let answered = waiting.map { (id: $0.key, waiter: $0.value) }
        waiting = [:]
        checking = false
        lastSuccess = ok ? now : nil
        return answered
    }

    /// Whether to log this answer's problem: once until it changes or health comes back,
    /// not once per request (a monitor polling a full disk, or a flood of requests).
    mutating func isNews(_ problem: String?) -> Bool {
        defer { lastProblem = problem }
        return problem != nil && problem != lastProblem
    }

    /// A request whose connection closed: nobody to answer.
    mutating func forget(_ id: UInt64) {
        waiting[id] = nil
    }
}
