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
}
