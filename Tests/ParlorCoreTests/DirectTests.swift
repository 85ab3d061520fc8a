import Testing
@testable import ParlorCore

/// `conversations.direct` and `users.block`/`.unblock` (docs/PROTOCOL.md, "Direct conversations").
@Suite struct DirectTests {
    /// Ana (1) and Ben (2) share a group; Cy (3) shares nothing with either.
    static func people() throws -> (EngineHarness, ana: String, ben: String, cy: String, group: String) {
        let h = try EngineHarness(settings: .openRegistration)
        let ana = h.register(1, "Ana").0
        let ben = h.register(2, "Ben").0
        let cy = h.register(3, "Cy").0
        let group = h.conversation(owner: 1, joiners: [2])
        return (h, ana, ben, cy, group)
    }

    static func direct(_ h: EngineHarness, _ conn: ConnectionID, _ userId: String) -> JSONValue {
        h.request(conn, #"{"type":"conversations.direct","id":"d","userId":"\#(userId)"}"#)
    }

    static func send(_ h: EngineHarness, _ conn: ConnectionID, _ cid: String, _ clientId: String) -> JSONValue {
        h.request(conn, #"{"type":"send","id":"s","conversationId":"\#(cid)","clientId":"\#(clientId)","message":{"kind":"text","text":"hi"}}"#)
    }

    static func block(_ h: EngineHarness, _ conn: ConnectionID, _ userId: String, _ type: String = "users.block") -> JSONValue {
        h.request(conn, #"{"type":"\#(type)","id":"b","userId":"\#(userId)"}"#)
    }

    @Test func theFramesAreParsed() {
        #expect(RequestParser.parse(Array(#"{"type":"conversations.direct","id":"d","userId":"u1"}"#.utf8)).result
                == .success(.openDirect(userId: "u1")))
        #expect(RequestParser.parse(Array(#"{"type":"users.block","id":"d","userId":"u1"}"#.utf8)).result
                == .success(.block(userId: "u1")))
        if case .failure(let e) = RequestParser.parse(Array(#"{"type":"users.unblock","id":"d"}"#.utf8)).result {
            #expect(e.field == "userId")
        } else { Issue.record("no userId accepted") }
    }

    @Test func bothAskingGetTheOneConversationMarkedDirect() throws {
        let (h, ana, ben, _, _) = try Self.people()
        let first = Self.direct(h, 1, ben)["result"]?["conversation"]
        let cid = try #require(first?["id"]?.string)
        #expect(first?["direct"] == .bool(true))
        #expect(Set(first?["directUserIds"]?.array?.compactMap(\.string) ?? []) == [ana, ben])
        #expect(first?["memberCount"]?.int == 2)
        #expect(Self.direct(h, 1, ben)["result"]?["conversation"]?["id"]?.string == cid)
        #expect(Self.direct(h, 2, ana)["result"]?["conversation"]?["id"]?.string == cid)
        #expect(Self.send(h, 2, cid, "b1")["result"]?["message"]?["seq"]?.int == 1)
        // Ben leaves; Ana opening it again brings him back to the same conversation
        h.request(2, #"{"type":"conversations.leave","id":"l","conversationId":"\#(cid)"}"#)
        let again = Self.direct(h, 1, ben)["result"]?["conversation"]
        #expect(again?["id"]?.string == cid && again?["memberCount"]?.int == 2)
    }

    @Test func strangersOneselfAndTheInactiveAreRefusedAlike() throws {
        let (h, ana, ben, cy, _) = try Self.people()
        let stranger = Self.direct(h, 1, cy)
        #expect(stranger["code"]?.string == "forbidden")
        #expect(Self.direct(h, 1, ana)["code"]?.string == "invalid_field")
        #expect(Self.direct(h, 1, "unope")["message"] == stranger["message"])
        #expect(Self.block(h, 2, ana)["result"] != nil)
        let blocked = Self.direct(h, 1, ben)
        #expect(blocked["code"]?.string == "forbidden" && blocked["message"] == stranger["message"])
        #expect(Self.direct(h, 2, ana)["code"]?.string == "forbidden")  // the blocker too
        #expect(Self.block(h, 2, ana, "users.unblock")["result"] != nil)
        #expect(Self.direct(h, 1, ben)["result"] != nil)
    }

    @Test func aDirectConversationHasNoInvitesRenameOrRemove() throws {
        let (h, _, ben, _, _) = try Self.people()
        let cid = try #require(Self.direct(h, 1, ben)["result"]?["conversation"]?["id"]?.string)
        #expect(h.request(1, #"{"type":"invites.create","id":"i","conversationId":"\#(cid)"}"#)["code"]?.string == "forbidden")
        #expect(h.request(1, #"{"type":"conversations.rename","id":"r","conversationId":"\#(cid)","title":"x"}"#)["code"]?.string == "forbidden")
        let bid = ben
        #expect(h.request(1, #"{"type":"conversations.removeMember","id":"r","conversationId":"\#(cid)","userId":"\#(bid)"}"#)["code"]?.string == "forbidden")
    }

    @Test func aBlockRefusesSendsInTheDirectConversationBothWaysButNotInGroups() throws {
        let (h, ana, ben, _, group) = try Self.people()
        let cid = try #require(Self.direct(h, 1, ben)["result"]?["conversation"]?["id"]?.string)
        let actions = h.batch([(1, #"{"type":"users.block","id":"b","userId":"\#(ben)"}"#)])
        let told = actions.compactMap { a -> JSONValue? in
            if case .toUser(let u, let p) = a, u == ana { return try? JSONParser.parse(p.json) } else { return nil }
        }
        #expect(told.first?["type"]?.string == "blocked")
        #expect(told.first?["users"]?.array?.first?["name"]?.string == "Ben")
        let refused = Self.send(h, 2, cid, "b1")
        #expect(refused["code"]?.string == "forbidden")
        #expect(Self.send(h, 1, cid, "a1")["code"]?.string == "forbidden")
        #expect(h.request(2, #"{"type":"history","id":"h","conversationId":"\#(cid)"}"#)["result"]?["messages"]?.array?.isEmpty == true)
        #expect(Self.send(h, 2, group, "b2")["result"] != nil)  // a group's history is the group's
        // nor is Ben's typing there told to Ana
        let typing = h.batch([(2, #"{"type":"typing","id":"t","conversationId":"\#(cid)","typing":true}"#)])
        #expect(!typing.contains { if case .broadcastInSmallRoom = $0 { true } else { false } })
        // the list comes with sign-in
        #expect(Self.block(h, 1, ben, "users.unblock")["result"] != nil)
        #expect(Self.send(h, 2, cid, "b3")["result"] != nil)
    }

    @Test func blocksAreBoundedAndSignInCarriesThem() throws {
        let h = try EngineHarness(settings: .openRegistration)
        let (ana, token) = h.register(1, "Ana")
        let ben = h.register(2, "Ben").0
        let cy = h.register(3, "Cy").0
        #expect(Self.block(h, 1, "unope")["code"]?.string == "not_found")
        #expect(Self.block(h, 1, ana)["code"]?.string == "invalid_field")
        try h.engine.store.write { tx in
            for i in 0..<(Limits.blocksPerUser - 1) { _ = try tx.block(blocker: ana, blocked: "u\(i)", at: 0) }
        }
        #expect(Self.block(h, 1, cy)["result"] != nil)
        #expect(Self.block(h, 1, cy)["result"] != nil)  // again: answered, one row
        #expect(Self.block(h, 1, ben)["code"]?.string == "too_many_blocks")
        #expect(try h.engine.store.write { try $0.blockCount(blocker: ana) } == Limits.blocksPerUser)
        let signIn = h.request(5, #"{"type":"auth","id":"a","token":"\#(token)"}"#)
        #expect(signIn["result"]?["blocked"]?.array?.first?["name"]?.string == "Cy")
    }

    @Test func blocksAreRateLimited() throws {
        var settings = EngineSettings.openRegistration
        settings.blocksPerUser = Rate(1, per: 3600, burst: 2)
        let h = try EngineHarness(settings: settings)
        _ = h.register(1, "Ana")
        let ben = h.register(2, "Ben").0
        #expect(Self.block(h, 1, ben)["result"] != nil)
        #expect(Self.block(h, 1, ben, "users.unblock")["result"] != nil)
        #expect(Self.block(h, 1, ben)["code"]?.string == "rate_limited")
    }
}
