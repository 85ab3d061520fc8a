import Testing
@testable import ParlorCore

/// `messages.edit`: the sender fixes a text within 15 minutes, at most 5 times
/// (docs/PROTOCOL.md, "messages.edit").
@Suite struct EditTests {
    static func frame(_ fields: String) -> String {
        #"{"type":"messages.edit","id":"e","conversationId":"c",\#(fields)"#
    }

    static func error(_ fields: String) -> ParlorError? {
        if case .failure(let e) = RequestParser.parse(Array(frame(fields).utf8)).result { return e }
        return nil
    }

    @Test func theFrameIsParsed() {
        let r = RequestParser.parse(Array(Self.frame(#""seq":4,"text":"fixed"}"#).utf8))
        #expect(r.result == .success(.editMessage(conversationId: "c", seq: 4, text: "fixed", mentions: nil)))
        #expect(r.id == "e")
    }

    /// The new text is checked as a text message's is, the errors naming `text`.
    @Test func theTextIsCheckedAsASentText() {
        for (fields, code, field) in [
            (#""text":"x"}"#, ParlorError.Code.invalidField, "seq"),
            (#""seq":0,"text":"x"}"#, .invalidField, "seq"),
            (#""seq":"1","text":"x"}"#, .invalidField, "seq"),
            (#""seq":1}"#, .invalidField, "text"),
            (#""seq":1,"text":""}"#, .invalidField, "text"),
            (#""seq":1,"text":"   "}"#, .invalidField, "text"),
            (#""seq":1,"text":"a\u0007b"}"#, .invalidField, "text"),
            (#""seq":1,"text":7}"#, .invalidField, "text"),
            (#""seq":1,"text":"\#(String(repeating: "a", count: Limits.textChars + 1))"}"#, .tooLong, "text"),
            (#""seq":1,"text":"\#(String(repeating: "é", count: Limits.textBytes / 2 + 1))"}"#, .tooLong, "text"),
        ] {
            let e = Self.error(fields)
            #expect(e?.code == code, "\(fields.prefix(40))")
            #expect(e?.field == field, "\(fields.prefix(40))")
        }
        #expect(Self.error(#""seq":1,"text":"line one\nline two\tend"}"#) == nil)
        #expect(Self.error(#""seq":1,"text":"\#(String(repeating: "a", count: Limits.textChars))"}"#) == nil)
    }

    @Test func theEditedBodyKeepsTheReplyAndSaysWhenAndHowOften() {
        #expect(String(decoding: Engine.editedBody("hi", replyTo: nil, editedAt: 5, editCount: 1), as: UTF8.self)
            == #"{"kind":"text","text":"hi","editedAt":5,"editCount":1}"#)
        #expect(String(decoding: Engine.editedBody("a\"b", replyTo: 3, editedAt: 5, editCount: 2), as: UTF8.self)
            == #"{"kind":"text","text":"a\"b","replyTo":3,"editedAt":5,"editCount":2}"#)
        #expect(Engine.editClientId("c1", 4, 1).count > Limits.idChars)
    }

    static func edit(_ h: EngineHarness, _ conn: ConnectionID, _ c: String, _ seq: Int, _ text: String) -> JSONValue {
        h.request(conn, #"{"type":"messages.edit","id":"e","conversationId":"\#(c)","seq":\#(seq),"text":"\#(text)"}"#)
    }

    @Test func theSenderEditsAndEveryoneIsToldByARecord() throws {
        let (h, c, send) = try SentMessage.anaAndBen()
        _ = send(1, "t1", #"{"kind":"text","text":"see you at 5","replyTo":null}"#)
        _ = send(2, "t2", #"{"kind":"text","text":"ok","replyTo":1}"#)
        h.clock.now += 60_000
        let actions = h.batch([(1, #"{"type":"messages.edit","id":"e","conversationId":"\#(c)","seq":1,"text":"see you at 6"}"#)])
        let frames = EngineHarness.frames(actions)
        let result = frames.first { $0["re"] == .string("e") }?["result"]?["message"]
        #expect(result?["seq"]?.int == 1)
        #expect(result?["text"] == .string("see you at 6"))
        #expect(result?["editedAt"]?.int == h.clock.now)
        #expect(result?["editCount"]?.int == 1)
        let event = frames.first { $0["type"] == .string("message") }?["message"]
        #expect(event?["seq"]?.int == 3)
        #expect(event?["kind"] == .string("edit"))
        #expect(event?["edits"]?.int == 1)
        #expect(event?["text"] == .string("see you at 6"))
        #expect(event?["editCount"]?.int == 1)
        #expect(event?["createdAt"]?.int == h.clock.now)
        // history shows the current text where the message stands
        let history = h.request(2, #"{"type":"history","id":"h","conversationId":"\#(c)"}"#)["result"]?["messages"]?.array
        #expect(history?.first?["text"] == .string("see you at 6"))
        #expect(history?.first?["editedAt"]?.int == h.clock.now)
        #expect(history?.map { $0["kind"]?.string } == ["text", "text", "edit"])
        // the same words again: answered, nothing stored
        #expect(Self.edit(h, 1, c, 1, "see you at 6")["result"]?["message"]?["editCount"]?.int == 1)
        let last = h.request(1, #"{"type":"history","id":"h","conversationId":"\#(c)"}"#)["result"]?["messages"]?.array
        #expect(last?.count == 3)
        // a send retried with the original clientId after the edit: the message as it is now
        let retry = send(1, "t1", #"{"kind":"text","text":"see you at 5"}"#)["result"]?["message"]
        #expect(retry?["seq"]?.int == 1)
        #expect(retry?["text"] == .string("see you at 6"))
    }

    @Test func onlyTheSenderOnlyTextsOnlyWhatExists() throws {
        let (h, c, send) = try SentMessage.anaAndBen()
        _ = send(1, "t1", #"{"kind":"text","text":"mine"}"#)
        _ = send(1, "r1", #"{"kind":"reaction","to":1,"emoji":"👍"}"#)
        let ben = Self.edit(h, 2, c, 1, "yours now")
        #expect(ben["code"] == .string("forbidden"))
        let reaction = Self.edit(h, 1, c, 2, "text")
        #expect(reaction["code"] == .string("invalid_field"))
        #expect(reaction["field"] == .string("seq"))
        #expect(Self.edit(h, 1, c, 9, "x")["code"] == .string("not_found"))
        #expect(Self.edit(h, 1, "cnone", 1, "x")["code"] == .string("not_member"))
        h.request(1, #"{"type":"messages.delete","id":"d","conversationId":"\#(c)","seq":1}"#)
        let deleted = Self.edit(h, 1, c, 1, "back")
        #expect(deleted["code"] == .string("not_found"))
        #expect(deleted["field"] == .string("seq"))
        #expect(Self.edit(h, 1, c, 3, "the deletion record")["code"] == .string("not_found"))
        // nothing was stored by any refusal
        let history = h.request(1, #"{"type":"history","id":"h","conversationId":"\#(c)"}"#)["result"]?["messages"]?.array
        #expect(history?.count == 3)
    }

    @Test func fifteenMinutesAndFiveEdits() throws {
        let (h, c, send) = try SentMessage.anaAndBen()
        _ = send(1, "t1", #"{"kind":"text","text":"v0"}"#)
        _ = send(1, "t2", #"{"kind":"text","text":"w0"}"#)
        for n in 1...5 {
            #expect(Self.edit(h, 1, c, 1, "v\(n)")["result"]?["message"]?["editCount"]?.int == n)
        }
        let sixth = Self.edit(h, 1, c, 1, "v6")
        #expect(sixth["code"] == .string("forbidden"))
        #expect(sixth["field"] == .string("seq"))
        h.clock.now += 900_000
        #expect(Self.edit(h, 1, c, 2, "w1")["result"]?["message"]?["text"] == .string("w1"))
        h.clock.now += 1
        let late = Self.edit(h, 1, c, 2, "w2")
        #expect(late["code"] == .string("forbidden"))
        #expect(late["field"] == .string("seq"))
        let messages = h.request(1, #"{"type":"history","id":"h","conversationId":"\#(c)"}"#)["result"]?["messages"]?.array ?? []
        #expect(messages.count == 2 + 6)
        #expect(messages[0]["text"] == .string("v5"))
        #expect(messages[1]["text"] == .string("w1"))
        // only the newest record of a message holds its text
        let records = messages.filter { $0["kind"] == .string("edit") && $0["edits"]?.int == 1 }
        #expect(records.map { $0["text"]?.string } == [nil, nil, nil, nil, "v5"])
        #expect(records.map { $0["editCount"]?.int } == [1, 2, 3, 4, 5])
    }

    @Test func editsAreRateLimitedAsSends() throws {
        var settings = EngineSettings.openRegistration
        settings.sendsPerUser = Rate(1, per: 3600, burst: 2)
        let h = try EngineHarness(settings: settings)
        _ = h.register(1, "Ana")
        let c = h.conversation(owner: 1)
        h.request(1, #"{"type":"send","id":"s","conversationId":"\#(c)","clientId":"k","message":{"kind":"text","text":"a"}}"#)
        #expect(Self.edit(h, 1, c, 1, "b")["result"] != nil)
        #expect(Self.edit(h, 1, c, 1, "c")["code"] == .string("rate_limited"))
    }

    /// Deleting an edited message leaves none of its texts in any row.
    @Test func deletingAnEditedMessageScrubsEveryText() throws {
        let (h, c, send) = try SentMessage.anaAndBen()
        _ = send(1, "t1", #"{"kind":"text","text":"first-words"}"#)
        _ = send(2, "t2", #"{"kind":"text","text":"between"}"#)
        _ = Self.edit(h, 1, c, 1, "second-words")
        _ = Self.edit(h, 1, c, 1, "third-words")
        #expect(h.request(2, #"{"type":"messages.delete","id":"d","conversationId":"\#(c)","seq":1}"#)["code"] == .string("forbidden"))
        #expect(h.request(1, #"{"type":"messages.delete","id":"d","conversationId":"\#(c)","seq":1}"#)["result"] != nil)
        let rows = try h.engine.store.write { tx in try tx.messages(conversationId: c, afterSeq: 0, limit: 100) }
        let all = String(decoding: rows.flatMap(\.body), as: UTF8.self)
        for text in ["first-words", "second-words", "third-words"] { #expect(!all.contains(text), "\(text)") }
        #expect(all.contains("between"))
        #expect(rows.count == 5)
        #expect(rows[0].deletedAt != nil)
    }
}
