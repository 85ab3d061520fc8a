import Foundation
import GRDB

/// Reports to the admins (Engine+Reports.swift).
extension SQLiteTransaction {
    func adminIds() throws -> [String] {
        try rows("SELECT id FROM users WHERE admin = 1 AND deactivated_at IS NULL", []).map { $0[0] }
    }

    func insertReport(_ r: NewReport) throws {
        try exec("""
            INSERT INTO reports (conversation_id, seq, reporter_id, sender_id, reason, copy, message_created_at, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, [r.conversationId, r.seq, r.reporter, r.sender, r.reason, Data(r.copy), r.messageCreatedAt, r.createdAt])
    }

    func hasOpenReport(reporter: String, conversationId: String, seq: Int) throws -> Bool {
        try row("""
            SELECT 1 FROM reports WHERE reporter_id = ? AND conversation_id = ? AND seq = ? AND resolved_at IS NULL
            """, [reporter, conversationId, seq]) != nil
    }

    func openReportCount(reporter: String?) throws -> Int {
        if let reporter {
            return try row("SELECT count(*) FROM reports WHERE reporter_id = ? AND resolved_at IS NULL", [reporter])
                .map { $0[0] } ?? 0
        }
        return try row("SELECT count(*) FROM reports WHERE resolved_at IS NULL", []).map { $0[0] } ?? 0
    }

    func openReports(before: Int?, limit: Int) throws -> [OpenReport] {
        try rows("""
            SELECT r.id, r.conversation_id, c.title, r.seq, r.copy, r.sender_id, s.name, r.message_created_at,
                   r.reporter_id, p.name, r.reason, r.created_at,
                   (SELECT count(*) FROM reports o WHERE o.conversation_id = r.conversation_id AND o.seq = r.seq
                        AND o.resolved_at IS NULL),
                   (SELECT m.deleted_at FROM messages m WHERE m.conversation_id = r.conversation_id AND m.seq = r.seq)
            FROM reports r
            LEFT JOIN conversations c ON c.id = r.conversation_id
            LEFT JOIN users s ON s.id = r.sender_id
            LEFT JOIN users p ON p.id = r.reporter_id
            WHERE r.resolved_at IS NULL AND r.id < ? ORDER BY r.id DESC LIMIT ?
            """, [before ?? Int.max, limit]).map {
            OpenReport(id: $0[0], conversationId: $0[1], conversationTitle: $0[2], seq: $0[3],
                       copy: ($0[4] as Data?).map { [UInt8]($0) } ?? Array("{}".utf8),
                       sender: $0[5], senderName: $0[6], messageCreatedAt: $0[7], reporter: $0[8], reporterName: $0[9],
                       reason: $0[10], createdAt: $0[11], reporters: $0[12], messageDeletedAt: $0[13])
        }
    }

    func report(id: Int) throws -> (conversationId: String, seq: Int, resolvedAt: Int?)? {
        try row("SELECT conversation_id, seq, resolved_at FROM reports WHERE id = ?", [id]).map { ($0[0], $0[1], $0[2]) }
    }

    func resolveReports(conversationId: String, seq: Int, by: String?, at: Int) throws -> Int {
        try exec("""
            UPDATE reports SET resolved_at = ?, resolved_by = ?, copy = NULL, reason = NULL
            WHERE conversation_id = ? AND seq = ? AND resolved_at IS NULL
            """, [at, by, conversationId, seq])
        return db.changesCount
    }

    func pruneResolvedReports(before: Int) throws -> Int {
        try exec("DELETE FROM reports WHERE resolved_at < ?", [before])
        return db.changesCount
    }
}
