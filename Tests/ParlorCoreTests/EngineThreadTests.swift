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

/// A store whose batches take `delayMs` more each, and whose `gated` writes (numbered
/// from 1) each wait until the test lets them go.
private final class SlowStore: ParlorStore, @unchecked Sendable {
    let inner: SQLiteStore
    private let gates: [Int: DispatchSemaphore]
    private let writes = Atomic<Int>(0)
    let waiting = Atomic<Int>(0)
    let delayMs = Atomic<Int>(0)

    init(gated: [Int]) throws {
        inner = try SQLiteStore(path: nil)
        gates = Dictionary(uniqueKeysWithValues: gated.map { ($0, DispatchSemaphore(value: 0)) })
    }

    func write<T>(_ body: (any StoreTransaction) throws -> T) throws -> T {
        let n = writes.add(1, ordering: .sequentiallyConsistent).newValue
        if let gate = gates[n] {
            waiting.store(n, ordering: .sequentiallyConsistent)
            gate.wait()
        }
        usleep(UInt32(delayMs.load(ordering: .sequentiallyConsistent) * 1000))
        return try inner.write(body)
    }

    func release(_ n: Int) { gates[n]?.signal() }
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
    /// its first request waiting for its last. While requests cost over twice the usual
    /// (a core running slow), a batch takes about `batchBudgetNs` of them (at least
    /// `minBudgetedBatch`); at the usual cost it takes everything queued.
    @Test func whileRequestsCostMoreThanUsualABacklogIsTakenInSmallBatches() throws {
        let root = NSTemporaryDirectory() + "parlor-thread-" + Secrets.hex(Secrets.randomBytes(6))
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try SlowStore(gated: [1, 3, 4])
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
            for n in [1, 3, 4] { store.release(n) }
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
        func isWaiting(_ write: Int) -> Bool {
            eventually { store.waiting.load(ordering: .sequentiallyConsistent) == write }
        }
        func answered(_ n: Int) -> Bool { eventually { batches.withLock { $0.reduce(0, +) } == n } }

        // The usual cost: 40 requests queued behind the first batch, taken whole.
        register(1..<2)
        #expect(isWaiting(1))
        register(100..<140)
        store.release(1)
        #expect(answered(41))
        // The core slows down: 20 requests queued behind a batch of one are taken whole
        // (nothing learned from a batch of one) and take 100 ms; 100 more queue meanwhile.
        store.delayMs.store(100, ordering: .sequentiallyConsistent)
        register(2..<3)
        #expect(isWaiting(3))
        register(300..<320)
        store.release(3)
        #expect(isWaiting(4))
        register(400..<500)
        store.release(4)
        #expect(answered(162))
        let sizes = batches.withLock { $0 }
        #expect(Array(sizes.prefix(4)) == [1, 40, 1, 20])
        #expect(sizes.dropFirst(4).allSatisfy { $0 <= EngineThread.minBudgetedBatch },
                "the backlog of 100 was taken as \(sizes.dropFirst(4))")
    }
}
