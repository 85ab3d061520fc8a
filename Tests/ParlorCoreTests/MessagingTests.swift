import Testing
@testable import ParlorCore

@Suite struct MessagingTests {
    @Test func onlyAuthOrRegisterBeforeSigningIn() throws {
        let h = try EngineHarness()
        #expect(h.request(1, #"{"type":"conversations.list","id":"1"}"#)["code"] == .string("not_authenticated"))
        #expect(h.request(1, #"{"type":"auth","id":"1","token":"nope"}"#)["code"] == .string("invalid_token"))
        let (uid, token) = h.register(1, "Ana")
        #expect(h.request(1, #"{"type":"auth","id":"2","token":"\#(token)"}"#)["code"] == .string("already_authenticated"))
        let r = h.request(2, #"{"type":"auth","id":"3","token":"\#(token)"}"#)
        #expect(r["result"]?["user"]?["id"]?.string == uid)
    }

    @Test func threeFailedSignInsCloseTheConnection() throws {
        let h = try EngineHarness()
        let actions = h.batch(Array(repeating: (7, #"{"type":"auth","id":"1","token":"bad"}"#), count: 3))
        #expect(actions.contains { if case .close(7, 4001, _) = $0 { true } else { false } })
    }

    @Test func sequenceNumbersAreGaplessPerConversation() throws {
        let h = try EngineHarness()
        h.register(1, "Ana"); h.register(2, "Ben")
        let c1 = h.conversation(owner: 1, joiners: [2])
        let c2 = h.conversation(owner: 1)
        var frames: [(ConnectionID, String)] = []
        for i in 0..<5 {
            frames.append((1, #"{"type":"send","id":"a\#(i)","conversationId":"\#(c1)","clientId":"a\#(i)","message":{"kind":"text","text":"x"}}"#))
            frames.append((2, #"{"type":"send","id":"b\#(i)","conversationId":"\#(c1)","clientId":"b\#(i)","message":{"kind":"text","text":"y"}}"#))
            frames.append((1, #"{"type":"send","id":"c\#(i)","conversationId":"\#(c2)","clientId":"c\#(i)","message":{"kind":"text","text":"z"}}"#))
        }
        let events = EngineHarness.frames(h.batch(frames)).filter { $0["type"] == .string("message") }
        let seqs1 = events.filter { $0["conversationId"]?.string == c1 }.compactMap { $0["message"]?["seq"]?.int }
        let seqs2 = events.filter { $0["conversationId"]?.string == c2 }.compactMap { $0["message"]?["seq"]?.int }
        #expect(seqs1 == Array(1...10))
        #expect(seqs2 == Array(1...5))
    }

    @Test func aRetryReturnsTheOriginalAndDifferentContentIsRefused() throws {
        let h = try EngineHarness()
        h.register(1, "Ana")
        let c = h.conversation(owner: 1)
        let send = #"{"type":"send","id":"s","conversationId":"\#(c)","clientId":"k1","message":{"kind":"text","text":"hello"}}"#
        let first = h.request(1, send)
        let again = h.batch([(1, send)])
        #expect(!again.contains { if case .broadcast = $0 { true } else { false } })
        let retry = EngineHarness.frames(again).first
        #expect(retry?["result"]?["message"]?["seq"] == first["result"]?["message"]?["seq"])
        let other = h.request(1, #"{"type":"send","id":"s","conversationId":"\#(c)","clientId":"k1","message":{"kind":"text","text":"changed"}}"#)
        #expect(other["code"] == .string("client_id_reused"))
        let history = h.request(1, #"{"type":"history","id":"h","conversationId":"\#(c)"}"#)
        #expect(history["result"]?["messages"]?.array?.count == 1)
    }

    /// The clientId is looked up only when needed (a refusal, or the insert finding it
    /// used): every kind of retry still gets the original, and nothing is stored twice.
    @Test func retriesOfAppMovesAndSessionUpdatesReturnTheOriginal() throws {
        let h = try EngineHarness()
        h.register(1, "Ana"); h.register(2, "Ben")
        let c = h.conversation(owner: 1, joiners: [2])
        let other = h.conversation(owner: 1)
        func app(_ cid: String, _ k: String, session: String? = nil, base: Int = 0) -> String {
            let s = session.map { #","session":{"id":"\#($0)","baseVersion":\#(base)}"# } ?? ""
            return #"{"type":"send","id":"\#(k)","conversationId":"\#(cid)","clientId":"\#(k)","message":{"kind":"app","appId":"wenderpic","url":"?k=\#(k)"\#(s)}}"#
        }
        let text = #"{"type":"send","id":"t","conversationId":"\#(c)","clientId":"t1","message":{"kind":"text","text":"hi"}}"#
        // The original and its retry in one batch, and again in the next.
        let frames = EngineHarness.frames(h.batch([(1, text), (1, text), (1, app(c, "a1"))]))
        let seqs = frames.compactMap { $0["result"]?["message"]?["seq"] }
        #expect(seqs == [.number(1), .number(1), .number(2)])
        #expect(h.request(1, app(c, "a1"))["result"]?["message"]?["seq"] == .number(2))
        // A session update retried after it moved the session on.
        #expect(h.request(1, app(c, "s1", session: "g"))["result"]?["message"]?["seq"] == .number(3))
        #expect(h.request(2, app(c, "s2", session: "g", base: 1))["result"]?["message"]?["seq"] == .number(4))
        let retried = h.request(2, app(c, "s2", session: "g", base: 1))
        #expect(retried["result"]?["message"]?["seq"] == .number(4))
        #expect(retried["result"]?["message"]?["session"]?["version"] == .number(2))
        // A retried move alongside a new one: both answered right, the new one stored once.
        let mixed = EngineHarness.frames(h.batch([(1, app(c, "a1")), (1, app(c, "a2"))]))
        #expect(mixed.compactMap { $0["result"]?["message"]?["seq"] } == [.number(2), .number(5)])
        // The same clientId in another conversation is refused, there and for apps.
        #expect(h.request(1, app(other, "a1"))["code"] == .string("client_id_reused"))
        #expect(h.request(1, #"{"type":"send","id":"t","conversationId":"\#(other)","clientId":"t1","message":{"kind":"text","text":"hi"}}"#)["code"]
                == .string("client_id_reused"))
        let history = h.request(1, #"{"type":"history","id":"h","conversationId":"\#(c)"}"#)
        #expect(history["result"]?["messages"]?.array?.count == 5)
        #expect(h.request(1, #"{"type":"history","id":"h","conversationId":"\#(other)"}"#)["result"]?["messages"]?.array?.count == 0)
    }

    @Test func nonMembersCanNeitherReadNorWrite() throws {
        let h = try EngineHarness()
        h.register(1, "Ana"); h.register(2, "Eve")
        let c = h.conversation(owner: 1)
        for frame in [
            #"{"type":"send","id":"1","conversationId":"\#(c)","clientId":"e","message":{"kind":"text","text":"hi"}}"#,
            #"{"type":"subscribe","id":"1","conversationId":"\#(c)"}"#,
            #"{"type":"history","id":"1","conversationId":"\#(c)"}"#,
            #"{"type":"invites.create","id":"1","conversationId":"\#(c)"}"#,
            #"{"type":"participants","id":"1","conversationId":"\#(c)","appId":"wenderpic"}"#,
        ] {
            #expect(h.request(2, frame)["code"] == .string("not_member"))
        }
        #expect(h.request(2, #"{"type":"conversations.join","id":"1","invite":"guess"}"#)["code"] == .string("invalid_invite"))
    }

    @Test func subscribeReplaysWhatWasMissedOrAsksForResync() throws {
        let h = try EngineHarness()
        h.register(1, "Ana")
        let c = h.conversation(owner: 1)
        for i in 0..<4 {
            h.request(1, #"{"type":"send","id":"s","conversationId":"\#(c)","clientId":"k\#(i)","message":{"kind":"text","text":"m\#(i)"}}"#)
        }
        let actions = h.batch([(1, #"{"type":"subscribe","id":"s","conversationId":"\#(c)","afterSeq":2}"#)])
        let frames = EngineHarness.frames(actions)
        #expect(frames.first?["result"]?["resync"] == .bool(false))
        #expect(frames.dropFirst().compactMap { $0["message"]?["seq"]?.int } == [3, 4])
        let lastOfReply = actions.last { if case .processed = $0 { false } else { true } }
        guard case .subscribe(1, c, _)? = lastOfReply else { Issue.record("subscribe must come after the replay"); return }
        guard case .processed(1, count: 1)? = actions.last else { Issue.record("the frame must be reported done"); return }
        #expect(h.engine.connections[1]?.replays.isEmpty == true, "a replay that is over keeps no entry")
        let ahead = h.request(1, #"{"type":"subscribe","id":"s","conversationId":"\#(c)","afterSeq":9}"#)
        #expect(ahead["result"]?["resync"] == .bool(true))
    }

    @Test func aReplayInPiecesKeepsItsEntryUntilItIsOver() throws {
        let h = try EngineHarness()
        h.register(1, "Ana")
        let c = h.conversation(owner: 1)
        for i in 0..<(Limits.replayPieceMessages + 20) {
            h.request(1, #"{"type":"send","id":"s","conversationId":"\#(c)","clientId":"k\#(i)","message":{"kind":"text","text":"m"}}"#)
        }
        let first = h.batch([(1, #"{"type":"subscribe","id":"s","conversationId":"\#(c)","afterSeq":0}"#)])
        guard let (afterSeq, generation) = first.lazy.compactMap({ a -> (Int, Int)? in
            if case .replayContinues(1, c, let s, let g) = a { (s, g) } else { nil }
        }).first else { Issue.record("a replay of more than a piece continues"); return }
        #expect(h.engine.connections[1]?.replays[c] == generation)
        let rest = h.engine.process([.replay(1, conversationId: c, afterSeq: afterSeq, generation: generation)])
        #expect(rest.contains { if case .subscribe(1, c, _) = $0 { true } else { false } })
        #expect(h.engine.connections[1]?.replays.isEmpty == true)
        // A piece of the finished replay arriving late is dropped.
        #expect(h.engine.process([.replay(1, conversationId: c, afterSeq: afterSeq, generation: generation)]).isEmpty)
    }

    @Test func historyPagesBackwards() throws {
        let h = try EngineHarness()
        h.register(1, "Ana")
        let c = h.conversation(owner: 1)
        for i in 0..<7 {
            h.request(1, #"{"type":"send","id":"s","conversationId":"\#(c)","clientId":"k\#(i)","message":{"kind":"text","text":"m"}}"#)
        }
        let last = h.request(1, #"{"type":"history","id":"h","conversationId":"\#(c)","limit":3}"#)
        #expect(last["result"]?["messages"]?.array?.compactMap { $0["seq"]?.int } == [5, 6, 7])
        #expect(last["result"]?["hasMore"] == .bool(true))
        let first = h.request(1, #"{"type":"history","id":"h","conversationId":"\#(c)","beforeSeq":3,"limit":3}"#)
        #expect(first["result"]?["messages"]?.array?.compactMap { $0["seq"]?.int } == [1, 2])
        #expect(first["result"]?["hasMore"] == .bool(false))
    }
}
