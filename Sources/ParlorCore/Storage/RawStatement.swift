import GRDB
import GRDBSQLite

/// Direct binding and stepping of a GRDB-cached statement, for the few statements every
/// send runs. GRDB's argument arrays box each value; on this path that boxing cost more
/// than SQLite itself. Everything else goes through GRDB as usual.
struct RawStatement {
    private let db: Database
    private let stmt: SQLiteStatement
    // SQLITE_TRANSIENT is a macro cast Swift cannot import: SQLite copies the bytes.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(_ db: Database, _ cache: StatementCache, _ sql: StaticString) throws {
        self.db = db
        stmt = try cache.statement(db, sql)
        // Every caller binds every parameter (nil as NULL), so no clear_bindings.
        sqlite3_reset(stmt)
    }

    func bind(_ i: Int32, _ v: String?) {
        guard let v else { sqlite3_bind_null(stmt, i); return }
        var s = v
        s.withUTF8 { buf in
            _ = sqlite3_bind_text(stmt, i, UnsafeRawPointer(buf.baseAddress!).assumingMemoryBound(to: CChar.self),
                                  Int32(buf.count), Self.transient)
        }
    }

    func bind(_ i: Int32, _ v: Int?) {
        guard let v else { sqlite3_bind_null(stmt, i); return }
        sqlite3_bind_int64(stmt, i, sqlite3_int64(v))
    }

    func bind(_ i: Int32, _ v: [UInt8]) {
        v.withUnsafeBytes { buf in
            _ = sqlite3_bind_blob(stmt, i, buf.baseAddress, Int32(buf.count), Self.transient)
        }
    }

    /// Runs a statement that returns no rows.
    func run() throws {
        let rc = sqlite3_step(stmt)
        sqlite3_reset(stmt)
        guard rc == SQLITE_DONE else { throw error(rc) }
    }

    /// Steps to the first row; false when there is none.
    func firstRow() throws -> Bool {
        let rc = sqlite3_step(stmt)
        if rc == SQLITE_ROW { return true }
        sqlite3_reset(stmt)
        guard rc == SQLITE_DONE else { throw error(rc) }
        return false
    }

    func int(_ col: Int32) -> Int { Int(sqlite3_column_int64(stmt, col)) }

    func text(_ col: Int32) -> String {
        guard let p = sqlite3_column_text(stmt, col) else { return "" }
        return String(cString: p)
    }

    func blob(_ col: Int32) -> [UInt8] {
        let n = Int(sqlite3_column_bytes(stmt, col))
        guard n > 0, let p = sqlite3_column_blob(stmt, col) else { return [] }
        return [UInt8](UnsafeRawBufferPointer(start: p, count: n))
    }

    /// A blob column of the current row, read where SQLite holds it (valid in `body` only).
    func withBlob<R>(_ col: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let n = Int(sqlite3_column_bytes(stmt, col))
        guard n > 0, let p = sqlite3_column_blob(stmt, col) else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeBufferPointer(start: p.assumingMemoryBound(to: UInt8.self), count: n))
    }

    func done() { sqlite3_reset(stmt) }

    private func error(_ rc: Int32) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: rc), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
    }
}

/// The hot statements, prepared once per connection and found by the address of their
/// SQL literal: GRDB's `cachedStatement(sql:)` hashes the whole SQL text on every call,
/// which cost more than binding the arguments.
final class StatementCache: @unchecked Sendable {
    // Only touched inside the store's serialized writes.
    private var statements: [UnsafeRawPointer: Statement] = [:]

    func statement(_ db: Database, _ sql: StaticString) throws -> SQLiteStatement {
        let key = UnsafeRawPointer(sql.utf8Start)
        if let s = statements[key] { return s.sqliteStatement }
        let s = try db.makeStatement(sql: sql.description)
        statements[key] = s
        return s.sqliteStatement
    }
}
