import Foundation
import Logging

/// Committed batches wait here until a sync that began after their commit returns, then
/// are delivered in commit order, while the engine already runs the next batches.
///
/// Two sync threads: a batch committed while a sync runs need not wait for that sync
/// to end before its own begins (an `fdatasync` covers every write made before it
/// started, and the kernel joins concurrent ones), so it waits about one sync, not up
/// to two. Whichever sync returns delivers every batch committed before it began, in
/// order, once those before them are delivered.
final class SyncedDelivery: @unchecked Sendable {
    private let store: any ParlorStore
    private let log: Logger
    private let deliver: @Sendable ([EngineAction]) -> Void
    private let threads: Int
    private let condition = NSCondition()
    /// Committed, not yet delivered; `pending[0]` is batch number `firstPending`.
    private var pending: [[EngineAction]] = []
    private var firstPending = 0
    /// Batches numbered below this are covered by a sync that has begun.
    private var covered = 0
    private var engineDone = false
    private var running = 0
    /// Deliveries take turns in the order their batches were taken, so they keep the
    /// commit order without holding `condition` while another thread delivers.
    private let turn = NSCondition()
    private var nextTicket = 0
    private var serving = 0

    init(store: any ParlorStore, log: Logger, threads: Int = 2, deliver: @escaping @Sendable ([EngineAction]) -> Void) {
        self.store = store
        self.log = log
        self.threads = threads
        self.deliver = deliver
    }

    func start() {
        running = threads
        for n in 0..<threads {
            startNamedThread("parlor-sync-\(n)") { [self] in loop() }
        }
    }

    /// On the engine thread, after each commit.
    func committed(_ actions: [EngineAction]) {
        condition.lock()
        pending.append(actions)
        condition.signal()
        condition.unlock()
    }

    /// After the engine's last batch: returns once everything committed is delivered.
    func finish() {
        condition.lock()
        engineDone = true
        condition.broadcast()
        while running > 0 { condition.wait() }
        condition.unlock()
    }

    private func loop() {
        while true {
            condition.lock()
            var next: Int { firstPending + pending.count }
            while next <= covered && !engineDone { condition.wait() }
            if next <= covered {
                // Done: whatever is pending is covered by a sync another thread runs.
                running -= 1
                condition.broadcast()
                condition.unlock()
                return
            }
            let upTo = next
            covered = upTo
            condition.unlock()
            do {
                try store.syncCommitted()
            } catch {
                // What was committed may not be on disk, and retrying a failed fsync
                // proves nothing (the kernel may have dropped the pages). Nothing of it
                // was acknowledged: stop, and let SQLite recover what the disk has.
                log.critical("cannot make committed messages durable; stopping", metadata: ["cause": "\(error)"])
                fatalError("sync failed: \(error)")
            }
            condition.lock()
            let n = max(0, upTo - firstPending)
            let batches = Array(pending.prefix(n))
            pending.removeFirst(n)
            firstPending += n
            let ticket = nextTicket
            nextTicket += 1
            condition.unlock()
            turn.lock()
            while serving != ticket { turn.wait() }
            turn.unlock()
            for actions in batches { deliver(actions) }
            turn.lock()
            serving += 1
            turn.broadcast()
            turn.unlock()
        }
    }
}
