/// Reports: a member tells the server's admins about someone else's message
/// (`messages.report`); admins list the open ones and resolve them (`admin.reports.*`),
/// and every connection of every admin, on every node, is told the open count when it
/// changes (`{"type":"reports","open":N}`), as at sign-in (`openReports`).
///
/// A report keeps a copy of the message's words as they were (never its images), its
/// sender and time: the admins see it even once its sender deleted or edited it. The
/// copy and the reason go when an admin resolves the report; who resolved it and when
/// stay `Limits.resolvedReportDays`. A reporter has at most `Limits.openReportsPerUser`
/// open reports, and makes them at `EngineSettings.reportsPerUser`.
extension Engine {
    func reportMessage(_ cid: String, _ seq: Int, reason: String?, id: String?, conn: ConnectionID, userId: String,
                       _ tx: any StoreTransaction, _ out: inout Outbox) throws {
        try limit(\.reports, userId, "reports")
        let m = try standingMessage(cid, seq, to: "report", userId: userId, tx)
        guard !m.isEditRecord else {
            throw ParlorError(.notFound, "there is no message \(seq) to report", field: "seq")
        }
        guard m.sender != userId else {
            throw ParlorError(.forbidden, "you cannot report your own message (delete it instead)", field: "seq")
        }
        // The same report again (a retry, a second tap): answered, nothing stored.
        if try tx.hasOpenReport(reporter: userId, conversationId: cid, seq: seq) {
            out.result(conn, id) { _ in }
            return
        }
        guard try tx.openReportCount(reporter: userId) < Limits.openReportsPerUser else {
            throw ParlorError(.tooManyReports, "you have \(Limits.openReportsPerUser) reports the admins have not looked at yet; "
                              + "try again once they have")
        }
        try tx.insertReport(NewReport(conversationId: cid, seq: seq, reporter: userId, sender: m.sender, reason: reason,
                                      copy: Self.reportCopy(m), messageCreatedAt: m.createdAt, createdAt: now()))
        out.result(conn, id) { _ in }
        try tellAdmins(tx, &out)
    }

    /// `admin.reports.list`, newest first.
    func listReports(after: String?, limit: Int, _ tx: any StoreTransaction) throws -> (inout JSONWriter) -> Void {
        var before: Int?
        if let after {
            guard let n = Self.reportNumber(after) else {
                throw ParlorError(.invalidField, "after is not a report id", field: "after")
            }
            before = n
        }
        let list = try tx.openReports(before: before, limit: limit)
        let open = try tx.openReportCount(reporter: nil)
        return { w in
            w.key("reports")
            w.beginArray()
            for r in list { Self.write(r, into: &w) }
            w.endArray()
            w.field("open", open)
            w.field("next", list.count == limit ? list.last.map { Self.reportId($0.id) } : nil)
        }
    }

    /// `admin.reports.resolve`: the report and every other open report of the same
    /// message are closed (the admin has decided about the message), their copies dropped.
    func resolveReport(_ reportId: String, actor: String?, _ tx: any StoreTransaction,
                       _ out: inout Outbox) throws -> Int {
        guard let n = Self.reportNumber(reportId), let r = try tx.report(id: n) else {
            throw ParlorError(.notFound, "there is no such report", field: "reportId")
        }
        // resolved already (by another admin, a moment before): nothing more to do
        guard r.resolvedAt == nil else { return 0 }
        let closed = try tx.resolveReports(conversationId: r.conversationId, seq: r.seq, by: actor, at: now())
        try tellAdmins(tx, &out)
        return closed
    }

    /// Every connection of every admin (on every node: `toUser` crosses the bus) learns
    /// how many reports are open now.
    func tellAdmins(_ tx: any StoreTransaction, _ out: inout Outbox) throws {
        let open = try tx.openReportCount(reporter: nil)
        let event = Payload { w in
            w.field("type", "reports")
            w.field("open", open)
        }
        for admin in try tx.adminIds() { out.actions.append(.toUser(userId: admin, event)) }
    }

    static func reportId(_ n: Int) -> String { "r\(n)" }

    static func reportNumber(_ id: String) -> Int? {
        guard id.hasPrefix("r"), let n = Int(id.dropFirst()), n > 0 else { return nil }
        return n
    }

    private static func write(_ r: OpenReport, into w: inout JSONWriter) {
        w.beginObject()
        w.field("id", reportId(r.id))
        w.field("conversationId", r.conversationId)
        w.field("conversationTitle", r.conversationTitle)
        w.field("seq", r.seq)
        w.key("message")
        w.beginObject()
        w.field("seq", r.seq)
        w.field("sender", r.sender)
        w.field("createdAt", r.messageCreatedAt)
        if r.copy.count > 2 { w.raw(r.copy[1..<(r.copy.count - 1)]) }
        w.endObject()
        w.key("sender")
        w.beginObject()
        w.field("id", r.sender)
        w.field("name", r.senderName)
        w.endObject()
        w.key("reporter")
        w.beginObject()
        w.field("id", r.reporter)
        w.field("name", r.reporterName)
        w.endObject()
        w.field("reason", r.reason)
        w.field("createdAt", r.createdAt)
        w.field("reporters", r.reporters)
        w.field("messageDeletedAt", r.messageDeletedAt)
        w.endObject()
    }

    /// What a report keeps of a message: its kind and words (a text, an app message's
    /// summary and layout texts, a sticker's description, a picture's name, a superseded
    /// state's summary) and the hash of its picture or recording, never a URL. The hash
    /// keeps no file: the admins see the picture while it is stored (an admin outside the
    /// conversation could not see a reported picture at all, only its name).
    static func reportCopy(_ m: StoredMessage) -> [UInt8] {
        let body = (try? JSONParser.parse(m.body)) ?? .null
        return JSONWriter.object { w in
            if case .string(let kind)? = body["kind"] { w.field("kind", kind) }
            for k in ["text", "appId", "summaryText", "description", "name", "emoji"] {
                if case .string(let s)? = body[k] { w.key(text: k); w.string(s) }
            }
            if case .number(let n)? = body["durationMs"] { w.field("durationMs", Int(n)) }
            for k in ["image", "audio"] {
                if case .string(let hash)? = body[k] { w.key(text: k); w.string(hash) }
            }
            if case .string(let hash)? = body["layout"]?["image"] { w.field("image", hash) }
            if case .number(let n)? = body["editedAt"] { w.field("editedAt", Int(n)) }
            if case .object? = body["layout"], let layout = body["layout"] {
                var texts: [(String, String)] = []
                for k in ["imageTitle", "imageSubtitle", "caption", "subcaption", "trailingCaption", "trailingSubcaption"] {
                    if case .string(let s)? = layout[k] { texts.append((k, s)) }
                }
                if !texts.isEmpty {
                    w.key("layout")
                    w.beginObject()
                    for (k, s) in texts { w.key(text: k); w.string(s) }
                    w.endObject()
                }
            }
            if m.supersededBy != nil { w.field("summary", m.summary) }
        }
    }
}

extension StoredMessage {
    /// An edit's record (`{"kind":"edit",…}`): not a message anyone wrote as such.
    var isEditRecord: Bool { body.starts(with: Array(#"{"kind":"edit""#.utf8)) }
}
