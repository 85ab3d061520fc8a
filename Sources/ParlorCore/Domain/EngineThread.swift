import Foundation
import Logging

/// Runs the engine on a thread of its own, so that storage never blocks the service
/// thread. Inputs queue up while a batch commits; the next batch takes them all at
/// once (group commit: one fsync for many messages under load).
///
/// A store that syncs separately (SQLite in WAL mode) gets a second thread: committed
/// batches wait there for one `syncCommitted` covering all of them, then are delivered
/// in order, while the engine already runs the next batch. So the engine's CPU work and
/// the disk's flush overlap, and nothing is acknowledged before it is durable.
public final class EngineThread: @unchecked Sendable {
    private let engine: Engine
    private let deliver: @Sendable ([EngineAction]) -> Void
    private let condition = NSCondition()
    private var inbox: [EngineInput] = []
    private var stopping = false
    private var finished = false
    private static let maxBatch = 2048
    private let store: any ParlorStore
    private let syncCondition = NSCondition()
    private var committed: [[EngineAction]] = []
    private var engineDone = false
    private var syncerDone = false

    /// `deliver` is called after each commit (after each sync, for a store that syncs
    /// separately), with the actions in order.
    public init(engine: Engine, deliver: @escaping @Sendable ([EngineAction]) -> Void) {
        self.engine = engine
        self.deliver = deliver
        store = engine.store
    }

    public func start() {
        let t = Thread { [self] in run() }
        t.name = "parlor-engine"
        t.start()
        if store.syncsSeparately {
            let s = Thread { [self] in syncLoop() }
            s.name = "parlor-sync"
            s.start()
        } else {
            syncerDone = true
        }
    }

    public func submit(_ input: EngineInput) {
        condition.lock()
        inbox.append(input)
        condition.signal()
        condition.unlock()
    }

    /// Finishes what was submitted, then returns.
    public func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
        syncCondition.lock()
        engineDone = true
        syncCondition.broadcast()
        while !syncerDone { syncCondition.wait() }
        syncCondition.unlock()
    }

    /// Delivers what the engine committed, once a sync after its commit returned.
    private func syncLoop() {
        while true {
            syncCondition.lock()
            while committed.isEmpty && !engineDone { syncCondition.wait() }
            if committed.isEmpty {
                syncerDone = true
                syncCondition.broadcast()
                syncCondition.unlock()
                return
            }
            let batches = committed
            committed.removeAll(keepingCapacity: true)
            syncCondition.unlock()
            do {
                try store.syncCommitted()
            } catch {
                // What was committed may not be on disk, and retrying a failed fsync
                // proves nothing (the kernel may have dropped the pages). Nothing of it
                // was acknowledged: stop, and let SQLite recover what the disk has.
                engine.log.critical("cannot make committed messages durable; stopping", metadata: ["cause": "\(error)"])
                fatalError("sync failed: \(error)")
            }
            for actions in batches { deliver(actions) }
        }
    }

    private func run() {
        while true {
            condition.lock()
            while inbox.isEmpty && !stopping { condition.wait() }
            if inbox.isEmpty && stopping {
                finished = true
                condition.broadcast()
                condition.unlock()
                return
            }
            let batch: [EngineInput]
            let queued = inbox.count
            if inbox.count <= Self.maxBatch {
                batch = inbox
                inbox.removeAll(keepingCapacity: true)
            } else {
                batch = Array(inbox.prefix(Self.maxBatch))
                inbox.removeFirst(Self.maxBatch)
            }
            condition.unlock()
            let actions = engine.process(batch, queued: queued)
            if actions.isEmpty { continue }
            if store.syncsSeparately {
                syncCondition.lock()
                committed.append(actions)
                syncCondition.signal()
                syncCondition.unlock()
            } else {
                deliver(actions)
            }
        }
    }
}
