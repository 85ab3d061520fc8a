import Foundation
import Logging
import Testing
@testable import ParlorCore

/// A store whose every batch waits until the test lets it go, as on a database that
/// does not answer.
private final class HungStore: ParlorStore, @unchecked Sendable {
    let inner: SQLiteStore
    let released = DispatchSemaphore(value: 0)

    init() throws { inner = try SQLiteStore(path: nil) }

    func write<T>(_ body: (any StoreTransaction) throws -> T) throws -> T {
        released.wait()
        released.signal()
        return try inner.write(body)
    }
}

@Suite struct EngineThreadStopTests {
    /// `parlor serve` gives the engine a few seconds after the drain, then cuts its
    /// store's waits short (Serve.swift): the stop must say it is not done.
    @Test func aStopWithinABoundReturnsWhileABatchStillWaits() throws {
        let root = NSTemporaryDirectory() + "parlor-stop-" + Secrets.hex(Secrets.randomBytes(6))
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try HungStore()
        let engine = Engine(store: store, apps: AppCatalog(publicDirectory: root),
                            blobs: try BlobStore(directory: root + "/blobs"), logger: Logger(label: "test"))
        let thread = EngineThread(engine: engine) { _ in }
        thread.start()
        thread.submit(.sweep)
        let start = Date()
        #expect(!thread.stop(within: 0.2))
        #expect(Date().timeIntervalSince(start) < 5)
        store.released.signal()
        #expect(thread.stop(within: 10))
    }
}
