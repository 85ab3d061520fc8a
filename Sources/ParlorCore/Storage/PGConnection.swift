import CLibPQ
import Foundation

/// One libpq connection, owned by one thread (the engine's). Every statement is
/// prepared once per connection and then run by name with its parameters; results
/// come back in binary and are decoded by column type.
///
/// libpq rather than postgres-nio: the engine is one synchronous thread that blocks on
/// its database by design (SQLite works the same way), so a blocking client fits it
/// with nothing in between; postgres-nio would add an event loop and a hop to it and
/// back for every statement, for no gain on one connection per node. It waits through
/// libpq's asynchronous calls and `poll`, so that no round trip waits past a deadline.
final class PGConnection {
    /// Nil once abandoned (a call that had no answer in time): the next batch connects.
    var conn: OpaquePointer?
    var prepared: [String: String] = [:]
    /// libpq's keywords and values: Parlor's defaults first, the operator's string last,
    /// so that whatever it sets wins (`PGConnection+Parameters.swift`).
    let parameters: [(String, String)]
    /// How long one round trip (or a connect) may go unanswered (`PGConnection+Wait.swift`).
    let timeoutSeconds: Int
    /// Off while migrations run: a large table's DDL may take minutes.
    var bounded = true
    /// The last connection was abandoned for want of an answer (not lost): see
    /// `reconnectIfBroken` and `roundTrip`.
    var timedOut = false
    /// Written to when the node stops: every wait ends at once (`stopWaiting`).
    let wakeup: PGWakeup
    /// After a call went unanswered, the next connection is made here.
    let background = PGBackgroundConnect()

    init(url: String, timeoutSeconds: Int = PostgresStore.defaultTimeoutSeconds) throws {
        parameters = Self.parameters(url, timeoutSeconds: timeoutSeconds)
        self.timeoutSeconds = timeoutSeconds
        wakeup = try PGWakeup()
        try connect()
    }

    /// A node that hangs inside a transaction (stopped, swapping, its network gone)
    /// held its conversations' row locks, and every other node's engine, one thread,
    /// waited behind them for good: for every conversation, its health check too (a
    /// cluster review, 2 of 2). Its session now ends after 5 s idle in a transaction,
    /// which lets go of the locks (nothing of that batch was acknowledged: acks follow
    /// COMMIT), and a batch waits 2 s at most for a lock, then fails and is retried by
    /// its clients.
    static let sessionSettings = "SET lock_timeout = '2s'; SET idle_in_transaction_session_timeout = '5s'"

    deinit { if let conn { PQfinish(conn) } }

    var inTransaction: Bool { conn.map { PQtransactionStatus($0) == PQTRANS_INTRANS } ?? false }
    var transactionFailed: Bool { conn.map { PQtransactionStatus($0) == PQTRANS_INERROR } ?? false }
    var connected: Bool { conn.map { PQstatus($0) == CONNECTION_OK } ?? false }

    /// A statement without parameters, not prepared (transaction control, DDL).
    func simple(_ sql: String) throws {
        let res = try roundTrip { PQsendQuery($0, sql) }
        defer { PQclear(res) }
        try check(res)
    }

    /// No deadline for `body` (migrations at startup), then the deadline again.
    func withoutDeadline<T>(_ body: () throws -> T) rethrows -> T {
        bounded = false
        defer { bounded = true }
        return try body()
    }

    /// Runs a prepared statement; returns its rows and the number of rows it changed.
    @discardableResult
    func run(_ sql: String, _ params: [any PGParam]) throws -> (rows: [PGRow], changed: Int) {
        let name = try statement(sql)
        let values = params.map(\.pgValue)
        var buffers: [UnsafeMutablePointer<CChar>?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        defer { for b in buffers { b?.deallocate() } }
        for v in values {
            switch v {
            case .null:
                buffers.append(nil); lengths.append(0); formats.append(0)
            case .int(let i):
                buffers.append(Self.cString(String(i))); lengths.append(0); formats.append(0)
            case .text(let s):
                buffers.append(Self.cString(s)); lengths.append(0); formats.append(0)
            case .bytes(let b):
                let p = UnsafeMutablePointer<CChar>.allocate(capacity: max(b.count, 1))
                b.withUnsafeBytes { raw in
                    if let base = raw.baseAddress { UnsafeMutableRawPointer(p).copyMemory(from: base, byteCount: b.count) }
                }
                buffers.append(p); lengths.append(Int32(b.count)); formats.append(1)
            }
        }
        let res = try buffers.withUnsafeBufferPointer { bufs in
            try bufs.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: max(bufs.count, 1)) { vals in
                try roundTrip { PQsendQueryPrepared($0, name, Int32(values.count), values.isEmpty ? nil : vals,
                                                    lengths, formats, 1) }
            }
        }
        defer { PQclear(res) }
        try check(res)
        return (Self.rows(res), Int(String(cString: PQcmdTuples(res))) ?? 0)
    }

    private func statement(_ sql: String) throws -> String {
        if let name = prepared[sql] { return name }
        let name = "p\(prepared.count)"
        let res = try roundTrip { PQsendPrepare($0, name, sql, 0, nil) }
        defer { PQclear(res) }
        try check(res)
        prepared[sql] = name
        return name
    }

    private func check(_ res: OpaquePointer?) throws {
        guard let res else { throw PGError(state: "08006", message: lastError) }
        switch PQresultStatus(res) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY: return
        default:
            let state = PQresultErrorField(res, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? "08006"
            let message = PQresultErrorField(res, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
                ?? lastError
            throw PGError(state: state, message: message)
        }
    }

    private static func rows(_ res: OpaquePointer?) -> [PGRow] {
        let n = PQntuples(res), cols = PQnfields(res)
        guard n > 0 else { return [] }
        let types = (0..<cols).map { PQftype(res, $0) }
        var out: [PGRow] = []
        out.reserveCapacity(Int(n))
        for r in 0..<n {
            var values: [PGValue] = []
            values.reserveCapacity(Int(cols))
            for c in 0..<cols {
                if PQgetisnull(res, r, c) != 0 { values.append(.null); continue }
                let len = Int(PQgetlength(res, r, c))
                let raw = UnsafeRawBufferPointer(start: PQgetvalue(res, r, c), count: len)
                values.append(decode(raw, type: types[Int(c)]))
            }
            out.append(PGRow(values: values))
        }
        return out
    }

    /// Binary wire formats: integers big-endian; text and bytea as their bytes.
    private static func decode(_ raw: UnsafeRawBufferPointer, type: Oid) -> PGValue {
        switch type {
        case 16: return .int(raw.first == 0 ? 0 : 1)  // bool
        case 20, 21, 23:  // int8, int2, int4
            var v: Int64 = raw.count > 0 && raw[0] & 0x80 != 0 ? -1 : 0
            for b in raw { v = v << 8 | Int64(b) }
            return .int(Int(v))
        case 17: return .bytes([UInt8](raw))  // bytea
        default: return .text(String(decoding: raw, as: UTF8.self))  // text, varchar, name
        }
    }

    private static func cString(_ s: String) -> UnsafeMutablePointer<CChar> {
        let utf8 = Array(s.utf8)
        let p = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count + 1)
        for (i, b) in utf8.enumerated() { p[i] = CChar(bitPattern: b) }
        p[utf8.count] = 0
        return p
    }

    /// libpq's messages span lines ("…\n\tIs the server running…"): one line for the log.
    static func trimmed(_ p: UnsafePointer<CChar>?) -> String {
        guard let p else { return "unknown error" }
        return String(cString: p).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
    }
}

/// PostgreSQL's SQLSTATE and primary message; never the statement or its values.
public struct PGError: Error, StoreFailure {
    public let state: String
    public let message: String
    /// No answer within the deadline (or the node is stopping): the connection was
    /// abandoned, and waiting again in the same batch would only double the wait.
    var unanswered = false
    public var logDescription: String { "PostgreSQL error \(state): \(message)" }
    /// Another node holds what this transaction needs in the other order.
    var isDeadlock: Bool { state == "40P01" }
    /// A lock was not had within `lock_timeout` (`PGConnection.sessionSettings`).
    var isLockTimeout: Bool { state == "55P03" }
}

enum PGValue {
    case null
    case int(Int)
    case text(String)
    case bytes([UInt8])
}

protocol PGParam { var pgValue: PGValue { get } }
extension String: PGParam { var pgValue: PGValue { .text(self) } }
extension Int: PGParam { var pgValue: PGValue { .int(self) } }
/// Flags are INTEGER 0/1 columns, as in the SQLite schema.
extension Bool: PGParam { var pgValue: PGValue { .int(self ? 1 : 0) } }
extension Array: PGParam where Element == UInt8 { var pgValue: PGValue { .bytes(self) } }
extension Optional: PGParam where Wrapped: PGParam { var pgValue: PGValue { self?.pgValue ?? .null } }

protocol PGColumn { static func decode(_ v: PGValue) -> Self }
extension String: PGColumn {
    static func decode(_ v: PGValue) -> String {
        guard case .text(let s) = v else { preconditionFailure("expected text, got \(v)") }
        return s
    }
}
extension Int: PGColumn {
    static func decode(_ v: PGValue) -> Int {
        guard case .int(let i) = v else { preconditionFailure("expected an integer, got \(v)") }
        return i
    }
}
extension Bool: PGColumn { static func decode(_ v: PGValue) -> Bool { Int.decode(v) != 0 } }
extension Array: PGColumn where Element == UInt8 {
    static func decode(_ v: PGValue) -> [UInt8] {
        guard case .bytes(let b) = v else { preconditionFailure("expected bytes, got \(v)") }
        return b
    }
}
extension Optional: PGColumn where Wrapped: PGColumn {
    static func decode(_ v: PGValue) -> Wrapped? {
        if case .null = v { return nil }
        return Wrapped.decode(v)
    }
}

struct PGRow {
    let values: [PGValue]
    subscript<T: PGColumn>(_ i: Int) -> T { T.decode(values[i]) }
}
