import Foundation
import GRDB
import Testing
@testable import ParlorCore

@Suite struct CheckpointTests {
    /// Past its threshold (16 MB here) the WAL is checkpointed by the checkpoint thread, not in the
    /// committing (engine) connection; the next commit copies only what the round left,
    /// and SQLite then restarts the WAL from its start: the file stops growing.
    @Test func theWALIsCheckpointedOffTheCommittingThreadAndRestarts() throws {
        let path = NSTemporaryDirectory() + "parlor-ckpt-" + Secrets.hex(Secrets.randomBytes(6)) + ".sqlite"
        defer { for ext in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + ext) } }
        let store = try SQLiteStore(path: path, checkpointAfterBytes: 16_384_000)
        func write(_ sql: String) throws {
            try store.write { tx in try (tx as! SQLiteTransaction).db.execute(sql: sql) }
        }
        try write("CREATE TABLE filler (b BLOB)")
        // 16 KB and more per transaction: 1,100 transactions pass 16 MB.
        for _ in 0..<1100 { try write("INSERT INTO filler VALUES (randomblob(16000))") }
        let checkpointer = store.checkpointer!
        let deadline = Date().addingTimeInterval(10)
        while !checkpointer.finishPending && checkpointer.checkpoints.finishing == 0 && Date() < deadline {
            usleep(10_000)
        }
        // rounds go on while the writer leaves more than a few frames behind
        let rounds = checkpointer.checkpoints.background
        #expect(rounds >= 1 && rounds <= WALCheckpointer.maxRounds)
        #expect(checkpointer.checkpoints.inline == 0)

        func walSize() -> Int { ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int) ?? 0 }
        // Each round copied up to the frame that was last when it began; the next commit
        // copies the rest in the engine's connection (none, when the last round caught
        // up with a writer that had stopped), and small writes after it go to the start
        // of the WAL instead of its end.
        try write("INSERT INTO filler VALUES (randomblob(100))")
        #expect(checkpointer.checkpoints.finishing <= 1)
        #expect(checkpointer.checkpoints.inline == 0)
        let before = walSize()
        for _ in 0..<50 { try write("INSERT INTO filler VALUES (randomblob(100))") }
        #expect(walSize() == before)
        #expect(checkpointer.checkpoints.background == rounds)
    }

    /// A scrub (after a deletion) empties the WAL, so deleted text does not stay in its
    /// older frames; a reader of an older snapshot (a backup under way) holds it back for
    /// `scrubWaitMs` at most, writes go on, and it is done once the reader lets go.
    @Test func aScrubEmptiesTheWALAndWaitsOutAReader() throws {
        let path = NSTemporaryDirectory() + "parlor-scrub-" + Secrets.hex(Secrets.randomBytes(6)) + ".sqlite"
        defer { for ext in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + ext) } }
        var config = Configuration()
        config.busyMode = .timeout(5)
        let writer = try DatabaseQueue(path: path, configuration: config)
        try writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "CREATE TABLE t (x TEXT)")
            try db.execute(sql: "INSERT INTO t VALUES ('secret')")
        }
        func walSize() -> Int { ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int) ?? 0 }
        let checkpointer = WALCheckpointer(databasePath: path, scrubEvery: 0, scrubRetry: 0.2)

        let reader = try DatabaseQueue(path: path)
        let holding = DispatchSemaphore(value: 0)
        let letGo = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? reader.read { db in
                _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM t")
                holding.signal()
                letGo.wait()
            }
        }
        holding.wait()
        try writer.write { db in try db.execute(sql: "INSERT INTO t VALUES ('more')") }
        checkpointer.scrub()
        usleep(300_000)
        let start = Date()
        try writer.write { db in try db.execute(sql: "INSERT INTO t VALUES ('meanwhile')") }
        #expect(Date().timeIntervalSince(start) < 1, "a write waited behind the scrub")
        #expect(checkpointer.scrubs == 0)
        #expect(walSize() > 0)

        letGo.signal()
        let deadline = Date().addingTimeInterval(5)
        while checkpointer.scrubs == 0 && Date() < deadline { usleep(10_000) }
        #expect(checkpointer.scrubs == 1)
        #expect(walSize() == 0)
        // and the database goes on as before
        try writer.write { db in try db.execute(sql: "INSERT INTO t VALUES ('after')") }
        #expect(try writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 4)
    }

    /// Another process reading the database while the server runs (`parlor-backup`'s
    /// sqlite3, `parlor admin`) must find the server's connections there when it closes:
    /// a background round's sync once dropped the process's locks on the database file,
    /// and the reader's close then checkpointed and deleted the WAL the server went on
    /// writing to; what the server committed after that was lost at its next start.
    @Test func aReaderInAnotherProcessLeavesTheWALOfARunningServerAlone() throws {
        let path = NSTemporaryDirectory() + "parlor-locks-" + Secrets.hex(Secrets.randomBytes(6)) + ".sqlite"
        defer { for ext in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + ext) } }
        let store = try SQLiteStore(path: path, checkpointAfterBytes: 4_096_000)
        func write(_ sql: String) throws {
            try store.write { tx in try (tx as! SQLiteTransaction).db.execute(sql: sql) }
        }
        try write("CREATE TABLE filler (b BLOB)")
        for _ in 0..<300 { try write("INSERT INTO filler VALUES (randomblob(16000))") }
        let checkpointer = store.checkpointer!
        let deadline = Date().addingTimeInterval(10)
        while checkpointer.checkpoints.background == 0 && Date() < deadline { usleep(10_000) }
        #expect(checkpointer.checkpoints.background >= 1)

        /// A count read by a process of its own, which then closes the database.
        func countElsewhere() throws -> String {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = ["python3", "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
                + "print(c.execute('SELECT count(*) FROM filler').fetchone()[0]); c.close()", path]
            let out = Pipe()
            p.standardOutput = out
            try p.run()
            p.waitUntilExit()
            return String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try countElsewhere() == "300")
        #expect(FileManager.default.fileExists(atPath: path + "-wal"), "the reader's close deleted the server's WAL")
        try write("INSERT INTO filler VALUES (randomblob(10))")
        #expect(try countElsewhere() == "301", "a commit after the reader went where no one reads it")
    }
}
