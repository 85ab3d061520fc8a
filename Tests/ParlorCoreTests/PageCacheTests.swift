import CWALBuffer
import Foundation
import GRDB
import Testing
@testable import ParlorCore

/// SQLite's page cache with truncations that cannot drop anything skipped
/// (Sources/CWALBuffer/page_cache.c).
@Suite struct PageCacheTests {
    struct Undo: Error {}

    /// Rows inserted in the middle of an index split leaves there (the B-tree balance
    /// that renumbers pages through a temporary page number): those commits' truncations
    /// are skipped. A transaction that grew the file and was rolled back must still drop
    /// its pages: that truncation is passed on, and what is written next over the same
    /// page numbers reads back intact.
    @Test func commitsSkipTheTruncationAndARollbackStillDropsItsPages() throws {
        let path = NSTemporaryDirectory() + "parlor-pcache-" + Secrets.hex(Secrets.randomBytes(6)) + ".sqlite"
        defer { for ext in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + ext) } }
        let store = try SQLiteStore(path: path)
        func write(_ sql: String) throws {
            try store.write { tx in try (tx as! SQLiteTransaction).db.execute(sql: sql) }
        }
        try write("CREATE TABLE t (room INTEGER, seq INTEGER, v BLOB); CREATE INDEX t_room ON t(room, seq)")
        let before = parlor_pcache_counters()
        // 200 rooms taking turns, 20 rows per commit: each lands in the middle of the index.
        for round in 0..<100 {
            try write("""
                WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 19)
                INSERT INTO t SELECT (\(round) * 20 + i) % 200, \(round) * 20 + i, randomblob(200) FROM n
                """)
        }
        let committed = parlor_pcache_counters()
        #expect(committed.tempKeyed > before.tempKeyed, "no balance renumbered pages: \(committed)")
        #expect(committed.skipped - before.skipped >= 95, "\(committed) after \(before)")

        // Grows the file by some 100 pages, then is undone.
        #expect(throws: Undo.self) {
            try store.write { tx in
                try (tx as! SQLiteTransaction).db.execute(sql: """
                    WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 999)
                    INSERT INTO t SELECT 1000 + i, i, randomblob(400) FROM n
                    """)
                throw Undo()
            }
        }
        #expect(parlor_pcache_counters().passed > committed.passed)
        try write("""
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 499)
            INSERT INTO t SELECT 2000 + i, i, zeroblob(400) FROM n
            """)
        let check = try store.write { tx in
            let db = (tx as! SQLiteTransaction).db
            return (try Int.fetchOne(db, sql: "SELECT count(*) FROM t") ?? 0,
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM t WHERE room >= 1000 AND room < 2000") ?? -1,
                    try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "")
        }
        #expect(check.0 == 2_500)
        #expect(check.1 == 0)
        #expect(check.2 == "ok")
    }
}
