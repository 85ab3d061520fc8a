import Foundation
import Logging
import Synchronization
import Testing
@testable import ParlorCore

/// A store whose commits are durable only once `syncCommitted` returns, and whose
/// sync waits until the test opens the gate.
private final class GatedStore: ParlorStore, @unchecked Sendable {
    let inner: SQLiteStore
    let gate = DispatchSemaphore(value: 0)
    let syncsStarted = Atomic<Int>(0)
    let commits = Atomic<Int>(0)

    init() throws { inner = try SQLiteStore(path: nil) }

    func write<T>(_ body: (any StoreTransaction) throws -> T) throws -> T {
        defer { commits.add(1, ordering: .sequentiallyConsistent) }
        return try inner.write(body)
    }

    var syncsSeparately: Bool { true }

    func syncCommitted() throws {
        syncsStarted.add(1, ordering: .sequentiallyConsistent)
        gate.wait()
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

    @Test func nothingIsAnsweredBeforeTheStoreSaysItIsDurableAndTheNextBatchRunsMeanwhile() throws {
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
            for _ in 0..<8 { store.gate.signal() }
            thread.stop()
        }
        func answered(_ conn: ConnectionID) -> Bool {
            delivered.withLock { $0.contains { if case .send(let c, _) = $0, c == conn { true } else { false } } }
        }

        thread.submit(.frame(1, Array(#"{"type":"register","id":"a","name":"Ana"}"#.utf8)))
        // Committed and waiting for its sync: not answered.
        #expect(eventually { store.syncsStarted.load(ordering: .sequentiallyConsistent) == 1 })
        let commitsBefore = store.commits.load(ordering: .sequentiallyConsistent)
        #expect(!answered(1))

        // The engine is not waiting for that sync: the next batch commits meanwhile.
        thread.submit(.frame(2, Array(#"{"type":"register","id":"b","name":"Ben"}"#.utf8)))
        #expect(eventually { store.commits.load(ordering: .sequentiallyConsistent) > commitsBefore })
        #expect(!answered(1) && !answered(2))

        // The first sync returns: the first batch is answered; the second waits for its own.
        store.gate.signal()
        #expect(eventually { answered(1) })
        #expect(eventually { store.syncsStarted.load(ordering: .sequentiallyConsistent) == 2 })
        #expect(!answered(2))
        store.gate.signal()
        #expect(eventually { answered(2) })
    }
}
