import Foundation
import GRDBSQLite

/// Moves SQLite's WAL checkpoints off the engine thread. SQLite checkpoints in the
/// connection that commits, once the WAL passes 1,000 pages (here: 16 MB): with commits no longer
/// waiting for the disk (see `SQLiteStore`), a checkpoint's two syncs (the WAL, then the
/// database file) were the engine's only waits on the disk, 5–20 ms every few dozen
/// batches under load. The engine's connection now only reports the WAL's size (a WAL
/// hook, which replaces the automatic checkpoint); a thread of its own with its own
/// connection runs a PASSIVE checkpoint, which never blocks the writer.
///
/// A checkpoint running beside a busy writer cannot catch up with the last frame, and
/// SQLite restarts the WAL from its start only when one has. Chasing the writer round
/// after round until one happened to catch up copied nearly every frame (each round
/// only what was appended during the last, so a page changed in every batch was copied
/// every round: 72 % of the frames written, measured on durable sends). So a cycle is
/// a background round, which copies the bulk, each page once, and syncs the database
/// file; a few shorter rounds while the writer left more than `finishWithinPages`
/// behind; then the engine's connection, at its next commit, copies and syncs the few
/// frames left and the WAL restarts (docs/BENCHMARKS.md, session 13: that step was
/// 8-74 ms and the games' p99 ~20 ms while the rounds left their pages unsynced). Past
/// `inlineAfterPages` the engine's connection checkpoints itself whatever the rounds
/// are doing, which keeps the file bounded.
final class WALCheckpointer: @unchecked Sendable {
    /// Sixteen times SQLite's own threshold (1,000 pages of 4 KB): a checkpoint copies
    /// each page changed since the last one once, however often it changed, and a game
    /// server changes the same index pages over and over (each copy is a read of the
    /// WAL, a write of the database file and its flush). Games, 2,000 rooms, against
    /// 16 MB: 20 % fewer bytes written to the disk and 7 % less CPU (docs/BENCHMARKS.md,
    /// session 14). Bytes, not pages, so a database with smaller pages is not
    /// checkpointed more often. The WAL file keeps its largest size: up to this much
    /// on a busy server, four times it at most.
    static let defaultBackgroundAfterBytes = 65_536_000
    private let backgroundAfterBytes: Int
    /// Rounds stop once the engine would have at most this many frames left to copy
    /// (and sync: ~1.5 ms of random writes), or after `maxRounds`.
    static let finishWithinPages: Int32 = 128
    static let maxRounds = 6
    /// Frames in the WAL after the engine's last commit.
    private var walPages: Int32 = 0
    private var backgroundAfterPages: Int32 = 1000
    private var inlineAfterPages: Int32 = 8000

    private let path: String
    private let condition = NSCondition()
    private var requested = false
    private var running = false
    private var db: OpaquePointer?
    /// Checkpoints run, for tests: background rounds, the engine's finishing ones, and
    /// the engine's past `inlineAfterPages`.
    var checkpoints: (background: Int, finishing: Int, inline: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (background, finishing, inline)
    }
    /// The round is done and the engine's next commit finishes the cycle, for tests.
    var finishPending: Bool {
        condition.lock()
        defer { condition.unlock() }
        return cycle == .copied
    }
    private var background = 0
    private var finishing = 0
    private var inline = 0
    /// Scrubs asked for, and how many of them the last one done covered.
    private var scrubsAsked = 0
    private var scrubbed = 0

    /// Where the WAL's current cycle is: under the threshold, a round asked for or
    /// running, the round done (the engine finishes the checkpoint at its next commit).
    private enum Cycle { case filling, copying, copied }
    private var cycle = Cycle.filling

    /// A scrub is a whole checkpoint and a WAL begun again: one at most this often
    /// (deletions every second on a busy server would otherwise undo the long cycles
    /// above), and one that met a reader is tried again `scrubRetry` later.
    private let scrubEvery: TimeInterval
    private let scrubRetry: TimeInterval
    private var nextScrub = Date.distantPast

    init(databasePath: String, backgroundAfterBytes: Int = defaultBackgroundAfterBytes,
         scrubEvery: TimeInterval = 10, scrubRetry: TimeInterval = 10) {
        path = databasePath
        self.backgroundAfterBytes = backgroundAfterBytes
        self.scrubEvery = scrubEvery
        self.scrubRetry = scrubRetry
    }

    /// Installs the WAL hook on the engine's connection.
    func attach(to connection: OpaquePointer, pageSize: Int) {
        backgroundAfterPages = Int32(backgroundAfterBytes / pageSize)
        inlineAfterPages = 4 * backgroundAfterPages
        sqlite3_wal_hook(connection, walHook, Unmanaged.passUnretained(self).toOpaque())
    }

    /// From the hook: the WAL holds `pages` after a commit.
    fileprivate func committed(_ connection: OpaquePointer?, pages: Int32) {
        condition.lock()
        walPages = pages
        if pages < backgroundAfterPages {
            // The WAL restarted (or never filled): a new cycle.
            cycle = .filling
            condition.unlock()
            return
        }
        let finish = pages >= inlineAfterPages || cycle == .copied
        if finish {
            if pages >= inlineAfterPages { inline += 1 } else { finishing += 1 }
            cycle = .filling
            condition.unlock()
            // Nothing is appended while the engine's own connection copies, so this
            // reaches the last frame and the next transaction restarts the WAL.
            sqlite3_wal_checkpoint_v2(connection, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            return
        }
        defer { condition.unlock() }
        guard cycle == .filling else { return }
        cycle = .copying
        requested = true
        if !running {
            running = true
            startNamedThread("parlor-checkpt") { [self] in loop() }
        }
        condition.signal()
    }

    private func loop() {
        while true {
            condition.lock()
            while !requested {
                if scrubbed < scrubsAsked {
                    // a scrub waits its turn (`scrubEvery`, `scrubRetry`)
                    if Date() >= nextScrub || !condition.wait(until: nextScrub) { break }
                } else {
                    condition.wait()
                }
            }
            requested = false
            let scrubbing = scrubbed < scrubsAsked && Date() >= nextScrub ? scrubsAsked : nil
            condition.unlock()
            if db == nil {
                db = Self.connect(path)
                guard db != nil else {
                    // the engine's inline checkpoint still bounds the WAL; a scrub waits
                    condition.lock()
                    nextScrub = Date(timeIntervalSinceNow: scrubRetry)
                    condition.unlock()
                    continue
                }
            }
            // SQLite syncs the database file only after a round that reached the WAL's
            // last frame, which a round beside a busy writer never does: the pages it
            // copied stayed dirty, and the engine's finishing step flushed them all
            // (about 11 µs a page on this disk, random writes: 8-74 ms with every
            // commit waiting, strace). Flushed here, the next round copies only what
            // was appended during this one, and each round is shorter than the last
            // (a page costs less to copy and sync than the writer takes to dirty a
            // new one), until what is left for the engine is a few milliseconds' worth.
            for _ in 0..<Self.maxRounds {
                var checkpointed: Int32 = 0
                sqlite3_wal_checkpoint_v2(db, nil, SQLITE_CHECKPOINT_PASSIVE, nil, &checkpointed)
                Self.syncDatabaseFile(db)
                condition.lock()
                background += 1
                let left = walPages - checkpointed
                condition.unlock()
                if left <= Self.finishWithinPages { break }
            }
            let emptied = scrubbing != nil && Self.empty(db)
            condition.lock()
            if cycle == .copying { cycle = .copied }
            if let scrubbing {
                if emptied { scrubbed = scrubbing }
                nextScrub = Date(timeIntervalSinceNow: emptied ? scrubEvery : scrubRetry)
            }
            condition.unlock()
        }
    }

    /// Deleted text (a message, an account's name) is zeroed in the database file once
    /// the deletion is copied in (`secure_delete`), but the WAL's frames written before
    /// it keep it until the WAL is written over: up to `backgroundAfterBytes` later,
    /// weeks on a quiet server. A scrub copies every frame in and empties the WAL, on the
    /// checkpointer's thread, after a round has copied the bulk: the engine waits only
    /// for the last few frames and a sync. Deletions close together share one.
    func scrub() {
        condition.lock()
        defer { condition.unlock() }
        scrubsAsked += 1
        if !running {
            running = true
            startNamedThread("parlor-checkpt") { [self] in loop() }
        }
        condition.signal()
    }

    /// Scrubs done, for tests.
    var scrubs: Int {
        condition.lock()
        defer { condition.unlock() }
        return scrubbed
    }
}

extension WALCheckpointer {
    /// A reader of an older snapshot (a backup under way) holds a scrub this long at
    /// most, and the engine's commits with it; then it gives up, to be tried again.
    static let scrubWaitMs: Int32 = 100

    fileprivate static func connect(_ path: String) -> OpaquePointer? {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else {
            sqlite3_close(handle)
            return nil
        }
        // Syncs the WAL before copying and the database file after, as the
        // engine's own checkpoints did.
        sqlite3_exec(handle, "PRAGMA synchronous = NORMAL", nil, nil, nil)
        return handle
    }

    /// Every frame copied into the database file and the WAL truncated to nothing;
    /// false when a writer or reader did not let go within `scrubWaitMs`.
    fileprivate static func empty(_ db: OpaquePointer?) -> Bool {
        sqlite3_busy_timeout(db, scrubWaitMs)
        defer { sqlite3_busy_timeout(db, 0) }
        return sqlite3_wal_checkpoint_v2(db, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil) == SQLITE_OK
    }

    /// An extra sync, so a failure only leaves the flush to the finishing step. Through
    /// the connection's own file: closing a descriptor of the database file opened here
    /// dropped every POSIX lock the process held on it, SQLite's shared lock included;
    /// another process's connection closing after it (`parlor-backup`'s sqlite3, `parlor
    /// admin`) then took itself for the last one, checkpointed and deleted the WAL the
    /// server was still writing to, and every commit from then on was lost at the next
    /// start.
    fileprivate static func syncDatabaseFile(_ db: OpaquePointer?) {
        var file: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(db, "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK,
              let file, let sync = file.pointee.pMethods?.pointee.xSync else { return }
        _ = sync(file, SQLITE_SYNC_NORMAL)
    }
}

private func walHook(_ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
                     _ name: UnsafePointer<CChar>?, _ pages: Int32) -> Int32 {
    guard let context else { return SQLITE_OK }
    Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue().committed(connection, pages: pages)
    return SQLITE_OK
}
