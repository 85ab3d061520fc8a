import Testing
@testable import ParlorCore

/// `messages.report` and `admin.reports.*` (docs/PROTOCOL.md, "messages.report").
@Suite struct ReportTests {
    static func report(_ h: EngineHarness, _ conn: ConnectionID, _ c: String, _ seq: Int, reason: String? = nil) -> JSONValue {
        let r = reason.map { #","reason":"\#($0)""# } ?? ""
        return h.request(conn, #"{"type":"messages.report","id":"p","conversationId":"\#(c)","seq":\#(seq)\#(r)}"#)
    }

    static func list(_ h: EngineHarness, _ conn: ConnectionID) -> JSONValue {
        h.request(conn, #"{"type":"admin.reports.list","id":"l"}"#)
    }

    static func parseError(_ fields: String) -> ParlorError? {
        let frame = #"{"type":"messages.report","id":"p","conversationId":"c",\#(fields)}"#
        if case .failure(let e) = RequestParser.parse(Array(frame.utf8)).result { return e }
        return nil
    }

    @Test func theFrameIsParsedAndTheReasonCheckedAsACaption() {
        let r = RequestParser.parse(Array(#"{"type":"messages.report","id":"p","conversationId":"c","seq":4,"reason":" spam\n "}"#.utf8))
        #expect(r.result == .success(.reportMessage(conversationId: "c", seq: 4, reason: "spam")))
        let none = RequestParser.parse(Array(#"{"type":"messages.report","id":"p","conversationId":"c","seq":4,"reason":"  "}"#.utf8))
        #expect(none.result == .success(.reportMessage(conversationId: "c", seq: 4, reason: nil)))
        #expect(Self.parseError(#""seq":0"#)?.field == "seq")
        #expect(Self.parseError(#""reason":"x""#)?.field == "seq")
        #expect(Self.parseError(#""seq":1,"reason":"a\u001bb""#)?.field == "reason")
        #expect(Self.parseError(#""seq":1,"reason":7"#)?.field == "reason")
        let long = Self.parseError(#""seq":1,"reason":"\#(String(repeating: "a", count: Limits.reportReasonChars + 1))""#)
        #expect(long?.code == .tooLong && long?.field == "reason")
        #expect(Self.parseError(#""seq":1,"reason":"line\nline\tend""#) == nil)
    }

    /// Ana (connection 1, the first account: the admin), Ben (2) and Cy (3, in no
    /// conversation); Ana and Ben each sent a text.
    static func room(_ settings: EngineSettings = .openRegistration) throws -> (EngineHarness, String, Void) {
        let h = try EngineHarness(settings: settings)
        _ = h.register(1, "Ana")
        _ = h.register(2, "Ben")
        _ = h.register(3, "Cy")
        let c = h.conversation(owner: 1, joiners: [2])
        h.request(1, #"{"type":"send","id":"s","conversationId":"\#(c)","clientId":"a1","message":{"kind":"text","text":"you all stink"}}"#)
        h.request(2, #"{"type":"send","id":"s","conversationId":"\#(c)","clientId":"b1","message":{"kind":"text","text":"hey"}}"#)
        return (h, c, ())
    }

    @Test func aMemberReportsAndEveryAdminIsToldTheOpenCount() throws {
        let (h, c, _) = try Self.room()
        let actions = h.batch([(2, #"{"type":"messages.report","id":"p","conversationId":"\#(c)","seq":1,"reason":"rude"}"#)])
        var told: [(String, JSONValue)] = []
        for case .toUser(let user, let p) in actions { if let v = try? JSONParser.parse(p.json) { told.append((user, v)) } }
        #expect(told.count == 1)
        #expect(told.first?.1 == (try? JSONParser.parse(Array(#"{"type":"reports","open":1}"#.utf8))))
        let list = Self.list(h, 1)["result"]
        #expect(list?["open"]?.int == 1)
        let r = list?["reports"]?.array?.first
        #expect(r?["conversationId"]?.string == c)
        #expect(r?["conversationTitle"]?.string == "Room")
        #expect(r?["seq"]?.int == 1)
        #expect(r?["message"]?["text"]?.string == "you all stink")
        #expect(r?["message"]?["kind"]?.string == "text")
        #expect(r?["sender"]?["name"]?.string == "Ana")
        #expect(r?["reporter"]?["name"]?.string == "Ben")
        #expect(r?["reason"]?.string == "rude")
        #expect(r?["reporters"]?.int == 1)
    }

    @Test func onlyAMemberReportsOthersMessagesThatExist() throws {
        let (h, c, _) = try Self.room()
        #expect(Self.report(h, 3, c, 1)["code"]?.string == "not_member")
        #expect(Self.report(h, 2, "cnope", 1)["code"]?.string == "not_member")
        let own = Self.report(h, 2, c, 2)
        #expect(own["code"]?.string == "forbidden" && own["field"]?.string == "seq")
        #expect(Self.report(h, 2, c, 9)["code"]?.string == "not_found")
        h.request(1, #"{"type":"messages.delete","id":"d","conversationId":"\#(c)","seq":1}"#)
        #expect(Self.report(h, 2, c, 1)["code"]?.string == "not_found")  // deleted
        #expect(Self.report(h, 2, c, 3)["code"]?.string == "not_found")  // the deletion record
        #expect(Self.list(h, 1)["result"]?["open"]?.int == 0)
    }

    @Test func aSecondReportOfTheSameMessageStoresNothing() throws {
        let (h, c, _) = try Self.room()
        #expect(Self.report(h, 2, c, 1)["result"] == .object(JSONObject()))
        let again = h.batch([(2, #"{"type":"messages.report","id":"p","conversationId":"\#(c)","seq":1}"#)])
        #expect(!again.contains { if case .toUser = $0 { true } else { false } })
        #expect(Self.report(h, 2, c, 1)["result"] == .object(JSONObject()))  // answered as the first
        #expect(Self.list(h, 1)["result"]?["open"]?.int == 1)
    }

    @Test func theCopySurvivesTheSendersDeletionAndResolvingDropsIt() throws {
        let (h, c, _) = try Self.room()
        _ = Self.report(h, 1, c, 2, reason: "test")  // the admin may report too
        h.request(2, #"{"type":"messages.delete","id":"d","conversationId":"\#(c)","seq":2}"#)
        let r = Self.list(h, 1)["result"]?["reports"]?.array?.first
        #expect(r?["message"]?["text"]?.string == "hey")
        #expect(r?["messageDeletedAt"]?.int != nil)
        let id = r?["id"]?.string ?? ""
        #expect(Self.list(h, 2)["code"]?.string == "forbidden")
        #expect(h.request(2, #"{"type":"admin.reports.resolve","id":"x","reportId":"\#(id)"}"#)["code"]?.string == "forbidden")
        let resolved = h.batch([(1, #"{"type":"admin.reports.resolve","id":"x","reportId":"\#(id)"}"#)])
        #expect(resolved.contains { if case .toUser(_, let p) = $0 { String(decoding: p.json, as: UTF8.self).contains(#""open":0"#) } else { false } })
        #expect(Self.list(h, 1)["result"]?["reports"]?.array?.isEmpty == true)
        #expect(h.request(1, #"{"type":"admin.reports.resolve","id":"x","reportId":"r999"}"#)["code"]?.string == "not_found")
        // resolved again: nothing to do, no error
        #expect(h.request(1, #"{"type":"admin.reports.resolve","id":"x","reportId":"\#(id)"}"#)["result"] != nil)
        // nothing of the text is left in the reports table
        let left: Int = try h.engine.store.write { tx in
            try (tx as! SQLiteTransaction).row("SELECT count(*) FROM reports WHERE copy IS NOT NULL OR reason IS NOT NULL", [])?[0] ?? -1
        }
        #expect(left == 0)
    }

    @Test func aPersonHasAtMostAHundredOpenReports() throws {
        var s = EngineSettings.openRegistration
        s.reportsPerUser = .unlimited
        let (h, c, _) = try Self.room(s)
        for i in 0..<Limits.openReportsPerUser {
            h.request(1, #"{"type":"send","id":"s","conversationId":"\#(c)","clientId":"m\#(i)","message":{"kind":"text","text":"m\#(i)"}}"#)
        }
        for seq in 3..<(3 + Limits.openReportsPerUser) { #expect(Self.report(h, 2, c, seq)["result"] != nil) }
        #expect(Self.report(h, 2, c, 1)["code"]?.string == "too_many_reports")
        // a page of 100, then the next from where it ended
        let page = Self.list(h, 1)["result"]
        #expect(page?["reports"]?.array?.count == Limits.listedReports)
        #expect(page?["reports"]?.array?.first?["seq"]?.int == 2 + Limits.openReportsPerUser)  // newest first
        let next = page?["next"]?.string ?? ""
        let rest = h.request(1, #"{"type":"admin.reports.list","id":"l","after":"\#(next)"}"#)["result"]?["reports"]?.array
        #expect(rest?.count == Limits.openReportsPerUser - Limits.listedReports)
    }

    @Test func reportsAreRateLimitedClearly() throws {
        let (h, c, _) = try Self.room()
        for i in 0..<12 {
            h.request(1, #"{"type":"send","id":"s","conversationId":"\#(c)","clientId":"m\#(i)","message":{"kind":"text","text":"m\#(i)"}}"#)
        }
        for seq in 3..<13 { #expect(Self.report(h, 2, c, seq)["result"] != nil) }
        let refused = Self.report(h, 2, c, 13)
        #expect(refused["code"]?.string == "rate_limited")
        #expect((refused["retryAfterMs"]?.int ?? 0) > 0)
    }

    @Test func anAdminsSignInSaysHowManyReportsAreOpen() throws {
        let (h, c, _) = try Self.room()
        _ = Self.report(h, 2, c, 1)
        let r = h.request(1, #"{"type":"devices.createLink","id":"k"}"#)["result"]?["code"]?.string ?? ""
        let signedIn = h.request(6, #"{"type":"device.link","id":"a","code":"\#(r)"}"#)["result"]
        #expect(signedIn?["openReports"]?.int == 1)
        let token = h.request(2, #"{"type":"devices.createLink","id":"k"}"#)["result"]?["code"]?.string ?? ""
        let ben = h.request(7, #"{"type":"device.link","id":"a","code":"\#(token)"}"#)["result"]
        #expect(ben?["user"] != nil && ben?["openReports"] == nil)
    }
}
