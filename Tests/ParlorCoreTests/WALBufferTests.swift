import CWALBuffer
import Foundation
import GRDBSQLite
import Testing
@testable import ParlorCore

/// The VFS that writes a WAL commit in one system call (Sources/CWALBuffer).
@Suite struct WALBufferTests {
    /// SQLite writes each page of a commit as two writes (frame header, page); they
    /// reach the file as one write per 120 KB, and all of them before the commit
    /// returns: a copy of the files taken right then, opened with SQLite's own VFS
    /// (which recovers from the WAL), holds every row, intact.
    @Test func aCommitReachesTheWALInFewWritesAndWhole() throws {
        let path = NSTemporaryDirectory() + "parlor-walbuf-" + Secrets.hex(Secrets.randomBytes(6)) + ".sqlite"
        let copy = path + ".copy"
        defer {
            for p in [path, copy] { for ext in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: p + ext) } }
        }
        let store = try SQLiteStore(path: path)
        func write(_ sql: String) throws {
            try store.write { tx in try (tx as! SQLiteTransaction).db.execute(sql: sql) }
        }
        try write("CREATE TABLE t (k TEXT, v BLOB); CREATE INDEX t_k ON t(k)")
        let before = parlor_walbuf_counters(path + "-wal")
        // 2,000 rows with random index keys: a commit of some 200 pages.
        try write("""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
            INSERT INTO t SELECT hex(randomblob(16)), randomblob(300) FROM n
            """)
        let after = parlor_walbuf_counters(path + "-wal")
        let asked = after.asked - before.asked, made = after.made - before.made
        #expect(asked >= 300)
        #expect(made >= 1 && made <= asked / 20, "asked \(asked) writes, made \(made)")

        for ext in ["", "-wal"] { try FileManager.default.copyItem(atPath: path + ext, toPath: copy + ext) }
        var db: OpaquePointer?
        defer { sqlite3_close(db) }
        #expect(sqlite3_open_v2(copy, &db, SQLITE_OPEN_READWRITE, "unix") == SQLITE_OK)
        func scalar(_ sql: String) -> String? {
            var st: OpaquePointer?
            defer { sqlite3_finalize(st) }
            guard sqlite3_prepare_v2(db, sql, -1, &st, nil) == SQLITE_OK, sqlite3_step(st) == SQLITE_ROW,
                  let text = sqlite3_column_text(st, 0) else { return nil }
            return String(cString: text)
        }
        #expect(scalar("SELECT count(*) FROM t") == "2000")
        #expect(scalar("PRAGMA integrity_check") == "ok")
    }
}
