import Testing
@testable import ParlorCore

/// `read`: a member's read mark, kept by the server so that her other devices follow.
@Suite struct ReadMarkTests {
    /// Ana on two connections (1: laptop, 2: phone), Ben on 3, in one room with 3 messages.
    private func room() throws -> (EngineHarness, String) {
        let h = try EngineHarness()
        let (_, token) = h.register(1, "Ana")
        h.request(2, #"{"type":"auth","id":"a","token":"\#(token)"}"#)
        h.register(3, "Ben")
        let cid = h.conversation(owner: 1, joiners: [3])
        for i in 1...3 {
            h.request(3, #"{"type":"send","id":"s\#(i)","conversationId":"\#(cid)","clientId":"k\#(i)","message":{"kind":"text","text":"hi"}}"#)
        }
        return (h, cid)
    }

    private func mark(_ h: EngineHarness, _ conn: ConnectionID, _ cid: String) -> JSONValue? {
        let list = h.request(conn, #"{"type":"conversations.list","id":"l"}"#)["result"]?["conversations"]?.array
        return list?.first { $0["id"]?.string == cid }?["lastReadSeq"]
    }

    private func readEvents(_ actions: [EngineAction]) -> [(to: String, except: ConnectionID?, JSONValue)] {
        actions.compactMap { a in
            switch a {
            case .toUserExcept(let u, let c, let p): (u, c, (try? JSONParser.parse(p.json)) ?? .null)
            case .toUser(let u, let p): (u, nil, (try? JSONParser.parse(p.json)) ?? .null)
            default: nil
            }
        }.filter { $0.2["type"] == .string("read") }
    }

    @Test func aMarkOnlyRisesAndIsToldToTheUsersOtherConnections() throws {
        let (h, cid) = try room()
        #expect(mark(h, 2, cid) == .number(0))
        let actions = h.batch([(1, #"{"type":"read","id":"r1","conversationId":"\#(cid)","seq":2}"#)])
        let events = readEvents(actions)
        #expect(events.count == 1)
        #expect(events.first?.except == 1, "not back to the connection that said it")
        #expect(events.first?.2["seq"] == .number(2))
        #expect(events.first?.2["conversationId"]?.string == cid)
        #expect(mark(h, 2, cid) == .number(2))
        #expect(mark(h, 3, cid) == .number(0), "Ben's own mark, untouched")

        let lower = h.batch([(2, #"{"type":"read","id":"r2","conversationId":"\#(cid)","seq":1}"#)])
        #expect(readEvents(lower).isEmpty, "a lower mark changes nothing")
        let same = h.batch([(2, #"{"type":"read","id":"r3","conversationId":"\#(cid)","seq":2}"#)])
        #expect(readEvents(same).isEmpty)
        #expect(mark(h, 1, cid) == .number(2))
    }

    @Test func aMarkPastTheLastMessageIsTheLastMessage() throws {
        let (h, cid) = try room()
        let events = readEvents(h.batch([(1, #"{"type":"read","id":"r","conversationId":"\#(cid)","seq":999}"#)]))
        #expect(events.first?.2["seq"] == .number(3))
        #expect(mark(h, 1, cid) == .number(3))
    }

    @Test func badInputAndNonMembersAreRefusedAndStoreNothing() throws {
        let (h, cid) = try room()
        h.register(4, "Eve")
        #expect(h.request(4, #"{"type":"read","id":"r","conversationId":"\#(cid)","seq":2}"#)["code"] == .string("not_member"))
        for bad in [#""seq":-1"#, #""seq":1.5"#, #""seq":"2""#, #""seq":null"#, ""] {
            let sep = bad.isEmpty ? "" : ","
            let r = h.request(1, #"{"type":"read","id":"r","conversationId":"\#(cid)"\#(sep)\#(bad)}"#)
            #expect(r["code"] == .string("invalid_field"), "\(bad)")
            #expect(r["field"] == .string("seq"), "\(bad)")
        }
        #expect(mark(h, 1, cid) == .number(0))
    }

    @Test func leavingForgetsTheMark() throws {
        let (h, cid) = try room()
        let invite = h.request(1, #"{"type":"invites.create","id":"i","conversationId":"\#(cid)"}"#)["result"]?["invite"]?.string ?? ""
        h.request(3, #"{"type":"read","id":"r","conversationId":"\#(cid)","seq":3}"#)
        #expect(mark(h, 3, cid) == .number(3))
        h.request(3, #"{"type":"conversations.leave","id":"x","conversationId":"\#(cid)"}"#)
        #expect(h.request(3, #"{"type":"read","id":"r2","conversationId":"\#(cid)","seq":3}"#)["code"] == .string("not_member"))
        h.request(3, #"{"type":"conversations.join","id":"j","invite":"\#(invite)"}"#)
        #expect(mark(h, 3, cid) == .number(0), "the mark went with the membership")
    }
}
