import Testing
@testable import ParlorCore

/// Mentions in texts and the per-conversation notification level
/// (docs/PROTOCOL.md: "Mentions", "conversations.setNotify").
@Suite struct MentionsTests {
    static func send(_ mentions: String) -> Result<Request, ParlorError> {
        let frame = #"{"type":"send","id":"s","conversationId":"c","clientId":"k","message":{"kind":"text","text":"hi @Ana","mentions":\#(mentions)}}"#
        return RequestParser.parse(Array(frame.utf8)).result
    }

    @Test func mentionsAreAListOfDistinctIdsAtMostTwenty() {
        #expect(Self.send(#"["u1","u2"]"#) == .success(.send(conversationId: "c", clientId: "k",
                                                                content: .text("hi @Ana", mentions: ["u1", "u2"]))))
        #expect(Self.send("null") == .success(.send(conversationId: "c", clientId: "k", content: .text("hi @Ana"))))
        let twenty = (1...20).map { #""u\#($0)""# }.joined(separator: ",")
        if case .success(.send(_, _, .text(_, _, let m))) = Self.send("[\(twenty)]") { #expect(m.count == 20) } else { Issue.record("20 refused") }
        for bad in [#""u1""#, #"["u1","u1"]"#, "[1]", #"[""]"#, #"["u\u0000"]"#, "[\(twenty),\"u21\"]",
                    #"["\#(String(repeating: "a", count: Limits.idChars + 1))"]"#] {
            guard case .failure(let e) = Self.send(bad) else { Issue.record("accepted \(bad)"); continue }
            #expect(e.code == .invalidField, "\(bad)")
            #expect(e.field == "message.mentions", "\(bad)")
        }
        let edit = #"{"type":"messages.edit","id":"e","conversationId":"c","seq":1,"text":"@Ana","mentions":["u1"]}"#
        #expect(RequestParser.parse(Array(edit.utf8)).result
            == .success(.editMessage(conversationId: "c", seq: 1, text: "@Ana", mentions: ["u1"])))
    }

    @Test func theBodyCarriesThemAfterTheText() {
        #expect(String(decoding: MessageContent.text("@Ana hi", replyTo: 2, mentions: ["u1"]).bodyJSON, as: UTF8.self)
            == #"{"kind":"text","text":"@Ana hi","mentions":["u1"],"replyTo":2}"#)
        #expect(String(decoding: MessageContent.text("hi").bodyJSON, as: UTF8.self) == #"{"kind":"text","text":"hi"}"#)
    }

    @Test func aNameIsMentionedOnlyAsAWholeWord() {
        #expect(Engine.names("hi @Ana", "Ana"))
        #expect(Engine.names("@Ana, look", "Ana"))
        #expect(Engine.names("@Anabel and @Ana!", "Ana"))
        #expect(Engine.names("@Ana B. here", "Ana B."))
        #expect(!Engine.names("hi @Anabel", "Ana"))
        #expect(!Engine.names("@Ana_1", "Ana"))
        #expect(!Engine.names("@Ana2", "Ana"))
        #expect(!Engine.names("@Anaïs", "Ana"))
        #expect(!Engine.names("hi Ana", "Ana"))
        #expect(!Engine.names("@ana", "Ana"))
    }

    @Test func notifyLevelsParse() {
        let ok = #"{"type":"conversations.setNotify","id":"n","conversationId":"c","notify":"mentions"}"#
        #expect(RequestParser.parse(Array(ok.utf8)).result == .success(.setNotify(conversationId: "c", notify: .mentions)))
        for bad in [#""notify":"some""#, #""notify":1"#, #""x":1"#] {
            let f = #"{"type":"conversations.setNotify","id":"n","conversationId":"c",\#(bad)}"#
            guard case .failure(let e) = RequestParser.parse(Array(f.utf8)).result else { Issue.record("accepted \(bad)"); continue }
            #expect(e.code == .invalidField)
            #expect(e.field == "notify")
        }
    }

    @Test func aSentMentionIsCheckedStoredAndEchoed() throws {
        let (h, c, send) = try SentMessage.anaAndBen()
        let ana = h.request(1, #"{"type":"conversations.list","id":"l"}"#)["result"]?["conversations"]?.array?.first?["members"]?
            .array?.first { $0["name"] == .string("Ana") }?["userId"]?.string ?? ""
        let actions = h.batch([(2, #"{"type":"send","id":"s","conversationId":"\#(c)","clientId":"m1","message":{"kind":"text","text":"@Ana look","mentions":["\#(ana)"]}}"#)])
        let event = EngineHarness.frames(actions).first { $0["type"] == .string("message") }?["message"]
        #expect(event?["mentions"] == .array([.string(ana)]))
        // refused, storing nothing: a stranger, a name the text does not say
        let stranger = send(2, "m2", #"{"kind":"text","text":"@Zed hi","mentions":["unobody"]}"#)
        #expect(stranger["code"] == .string("invalid_field"))
        #expect(stranger["field"] == .string("message.mentions"))
        let unsaid = send(2, "m3", #"{"kind":"text","text":"hi Ana","mentions":["\#(ana)"]}"#)
        #expect(unsaid["code"] == .string("invalid_field"))
        let history = h.request(1, #"{"type":"history","id":"h","conversationId":"\#(c)"}"#)["result"]?["messages"]?.array
        #expect(history?.count == 1)
        #expect(history?.first?["mentions"] == .array([.string(ana)]))
        // an edit without mentions keeps those still named; with them, replaces them
        let kept = h.request(2, #"{"type":"messages.edit","id":"e","conversationId":"\#(c)","seq":1,"text":"@Ana look here"}"#)
        #expect(kept["result"]?["message"]?["mentions"] == .array([.string(ana)]))
        let dropped = h.request(2, #"{"type":"messages.edit","id":"e","conversationId":"\#(c)","seq":1,"text":"look here"}"#)
        #expect(dropped["result"]?["message"]?["mentions"] == nil)
        let refused = h.request(2, #"{"type":"messages.edit","id":"e","conversationId":"\#(c)","seq":1,"text":"look","mentions":["\#(ana)"]}"#)
        #expect(refused["code"] == .string("invalid_field"))
        #expect(refused["field"] == .string("mentions"))
    }

    @Test func theNotifyLevelIsStoredListedAndToldToTheUsersOtherConnections() throws {
        let h = try EngineHarness()
        let (_, token) = h.register(1, "Ana")
        _ = h.register(2, "Ben")
        let c = h.conversation(owner: 1, joiners: [2])
        _ = h.request(3, #"{"type":"auth","id":"a","token":"\#(token)"}"#)
        func listed(_ conn: ConnectionID) -> JSONValue? {
            h.request(conn, #"{"type":"conversations.list","id":"l"}"#)["result"]?["conversations"]?.array?.first?["notify"]
        }
        #expect(listed(1) == .string("all"))
        let actions = h.batch([(1, #"{"type":"conversations.setNotify","id":"n","conversationId":"\#(c)","notify":"mentions"}"#)])
        let told = actions.compactMap { a -> JSONValue? in
            if case .toUserExcept(_, let except, let p) = a, except == 1 { try? JSONParser.parse(p.json) } else { nil }
        }
        #expect(told.count == 1)
        #expect(told.first?["type"] == .string("notify"))
        #expect(told.first?["conversationId"] == .string(c))
        #expect(told.first?["notify"] == .string("mentions"))
        #expect(listed(3) == .string("mentions"))
        #expect(listed(2) == .string("all"))  // Ben's own stays
        let sub = h.request(3, #"{"type":"subscribe","id":"s","conversationId":"\#(c)","afterSeq":0}"#)
        #expect(sub["result"]?["conversation"]?["notify"] == .string("mentions"))
        // the same again: answered, nobody told
        let again = h.batch([(1, #"{"type":"conversations.setNotify","id":"n","conversationId":"\#(c)","notify":"mentions"}"#)])
        #expect(!again.contains { if case .toUserExcept = $0 { true } else { false } })
        #expect(h.request(1, #"{"type":"conversations.setNotify","id":"n","conversationId":"cnone","notify":"none"}"#)["code"]
            == .string("not_member"))
    }
}
