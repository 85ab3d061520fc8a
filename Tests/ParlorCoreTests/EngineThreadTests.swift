import Foundation
import Logging
import Synchronization
import Testing
@testable import ParlorCore

/// A store whose commits are durable only once `syncCommitted` returns; each sync
/// waits until the test releases it (by the order the syncs began).
private final class GatedStore: ParlorStore, @unchecked Sendable {
    let inner: SQLiteStore
    let commits = Atomic<Int>(0)
    private let gates = Mutex<(waiting: [DispatchSemaphore], open: Bool)>(([], false))

    init() throws { inner = try SQLiteStore(path: nil) }

    func write<T>(_ body: (any StoreTransaction) throws -> T) throws -> T {
        defer { commits.add(1, ordering: .sequentiallyConsistent) }
        return try inner.write(body)
    }

    var syncsSeparately: Bool { true }

    var syncsStarted: Int { gates.withLock { $0.waiting.count } }

    func syncCommitted() throws {
        let gate = DispatchSemaphore(value: 0)
        let open = gates.withLock { g in
            g.waiting.append(gate)
            return g.open
        }
        if !open { gate.wait() }
    }

    /// Lets the `n`th sync (from 1) return.
    func release(_ n: Int) { gates.withLock { $0.waiting[n - 1] }.signal() }

    func openAll() {
        gates.withLock { g in
            g.open = true
            for s in g.waiting { s.signal() }
        }
    }
}

/// A store whose batches take 20 ms each, and whose first `gated` writes each wait
/// until the test lets them go.
private final class SlowStore: ParlorStore, @unchecked Sendable {
    let inner: SQLiteStore
    private let gates: [DispatchSemaphore]
    private let writes = Atomic<Int>(0)
    let waiting = Atomic<Int>(0)

    init(gated: Int) throws {
        inner = try SQLiteStore(path: nil)
        gates = (0..<gated).map { _ in DispatchSemaphore(value: 0) }
    }

    func write<T>(_ body: (any StoreTransaction) throws -> T) throws -> T {
        let n = writes.add(1, ordering: .sequentiallyConsistent).newValue
        if n <= gates.count {
            waiting.store(n, ordering: .sequentiallyConsistent)
            gates[n - 1].wait()
        }
        usleep(20_000)
        return try inner.write(body)
    }

    /// Lets the `n`th write (from 1) go on.
    func release(_ n: Int) { gates[n - 1].signal() }
}

@Suite struct EngineThreadTests {
    /// Polls `condition` for up to 10 s: the event a test waits on, with a bound.
    private func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if condition() { return true }
            usleep(1000)
        }
        return condition()
    }

    @Test func nothingIsAnsweredBeforeASyncThatBeganAfterItsCommitReturns() throws {
        let root = NSTemporaryDirectory() + "parlor-thread-" + Secrets.hex(Secrets.randomBytes(6))
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try GatedStore()
        let engine = Engine(store: store, apps: AppCatalog(publicDirectory: root),
                            blobs: try BlobStore(directory: root + "/blobs"), logger: Logger(label: "test"),
                            settings: .openRegistration)
        let delivered = Mutex<[EngineAction]>([])
        let thread = EngineThread(engine: engine) { actions in delivered.withLock { $0 += actions } }
        thread.start()
        defer {
            store.openAll()
            thread.stop()
        }
        /// Where the answer to `conn` is among the delivered actions, if delivered.
        func answer(_ conn: ConnectionID) -> Int? {
            delivered.withLock { $0.firstIndex { if case .send(let c, _) = $0, c == conn { true } else { false } } }
        }
        func register(_ conn: ConnectionID) {
            thread.submit(.frame(conn, Array(#"{"type":"register","id":"r","name":"P\#(conn)"}"#.utf8)))
        }

        register(1)
        // Committed and waiting for its sync: not answered.
        #expect(eventually { store.syncsStarted == 1 })
        let commitsBefore = store.commits.load(ordering: .sequentiallyConsistent)
        #expect(answer(1) == nil)

        // The engine does not wait for that sync: the next batch commits meanwhile, and
        // its own sync begins without waiting for the first to end.
        register(2)
        #expect(eventually { store.commits.load(ordering: .sequentiallyConsistent) > commitsBefore })
        #expect(eventually { store.syncsStarted == 2 })
        #expect(answer(1) == nil && answer(2) == nil)

        // The first sync returns: the first batch is answered; the second waits for its own.
        store.release(1)
        #expect(eventually { answer(1) != nil })
        #expect(answer(2) == nil)
        store.release(2)
        #expect(eventually { answer(2) != nil })

        // A later sync covers what was committed before it began, even if an earlier
        // one has not returned: both answered, in commit order.
        register(3)
        #expect(eventually { store.syncsStarted == 3 })
        register(4)
        #expect(eventually { store.syncsStarted == 4 })
        store.release(4)
        #expect(eventually { answer(3) != nil && answer(4) != nil })
        #expect((answer(3) ?? 0) < (answer(4) ?? 0))
        store.release(3)
    }

    /// A request is answered when its batch commits, so a backlog taken as one batch kept
    /// its first request waiting for its last. Once a batch showed what a request costs,
    /// the next takes about `batchBudgetNs` of them (at least `minBudgetedBatch`).
    @Test func aBacklogIsTakenInBatchesOfAFewMillisecondsOfWork() throws {
        let root = NSTemporaryDirectory() + "parlor-thread-" + Secrets.hex(Secrets.randomBytes(6))
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try SlowStore(gated: 2)
        let engine = Engine(store: store, apps: AppCatalog(publicDirectory: root),
                            blobs: try BlobStore(directory: root + "/blobs"), logger: Logger(label: "test"),
                            settings: .openRegistration)
        let batches = Mutex<[Int]>([])
        let thread = EngineThread(engine: engine) { actions in
            let n = actions.reduce(0) { if case .processed(_, let count) = $1 { $0 + count } else { $0 } }
            if n > 0 { batches.withLock { $0.append(n) } }
        }
        thread.start()
        defer {
            store.release(1)
            store.release(2)
            thread.stop()
        }
        func register(_ conns: Range<ConnectionID>) {
            for conn in conns {
                thread.submit(.frame(conn, Array(#"{"type":"register","id":"r","name":"P\#(conn)"}"#.utf8)))
            }
        }
        func eventually(_ condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline && !condition() { usleep(1000) }
            return condition()
        }

        register(1..<2)
        #expect(eventually { store.waiting.load(ordering: .sequentiallyConsistent) == 1 })
        register(100..<140)  // queued behind the first batch: taken whole, nothing learned yet
        store.release(1)
        #expect(eventually { store.waiting.load(ordering: .sequentiallyConsistent) == 2 })
        register(200..<300)  // queued behind a batch that shows a request costs over 0.5 ms
        store.release(2)
        #expect(eventually { batches.withLock { $0.reduce(0, +) } == 141 })
        let sizes = batches.withLock { $0 }
        #expect(Array(sizes.prefix(2)) == [1, 40])
        #expect(sizes.dropFirst(2).allSatisfy { $0 <= EngineThread.minBudgetedBatch },
                "the backlog of 100 was taken as \(sizes.dropFirst(2))")
    }
}
